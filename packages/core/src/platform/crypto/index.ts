export { createSealer, type Sealer } from "./sealer.ts";
export { SecretUnsealable } from "./secret-unsealable.ts";
export { encryptionKeyId, parseEncryptionKey, parseEncryptionKeyList, ENCRYPTION_KEY_BYTES } from "./encryption-key.ts";
export { loadEncryptionKeys, ENCRYPTION_KEY_FILE, type EncryptionKeys } from "./load-encryption-keys.ts";
