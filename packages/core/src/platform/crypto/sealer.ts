import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { ENCRYPTION_KEY_BYTES, encryptionKeyId } from "./encryption-key.ts";
import { SecretUnsealable } from "./secret-unsealable.ts";

/** Seals secrets (webhook signing secrets, provider keys) for storage, and opens them again. */
export type Sealer = {
  /** The id of the key new secrets are sealed with; safe to log. */
  readonly keyId: string;
  /** `v1.<key id>.<wrapped data key>.<ciphertext>`; a different string on every call. */
  seal(plaintext: string): string;
  /** The plaintext; throws SecretUnsealable when no key of this instance opens it. */
  open(sealed: string): string;
  /**
   * True when the secret was sealed with one of the previous keys: open and seal it again to
   * move it to the current key. False for the current key and for keys this instance lacks.
   */
  needsReseal(sealed: string): boolean;
};

const VERSION = "v1";
const IV_BYTES = 12;
const TAG_BYTES = 16;
const WRAPPED_BYTES = IV_BYTES + ENCRYPTION_KEY_BYTES + TAG_BYTES;
const KEY_ID = /^[0-9a-f]{16}$/;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Envelope encryption: each secret gets a fresh random data key that encrypts it with
 * AES-256-GCM; the data key is wrapped with the key-encryption key (AES-256-GCM too). The
 * version and key id are bound to both as additional authenticated data.
 */
export function createSealer(keys: { current: Buffer; previous?: readonly Buffer[] }): Sealer {
  for (const key of [keys.current, ...(keys.previous ?? [])]) {
    if (key.length !== ENCRYPTION_KEY_BYTES) throw new Error(`encryption keys are ${ENCRYPTION_KEY_BYTES} bytes`);
  }
  const currentKeyId = encryptionKeyId(keys.current);
  const keysById = new Map<string, Buffer>();
  for (const key of keys.previous ?? []) keysById.set(encryptionKeyId(key), key);
  keysById.set(currentKeyId, keys.current);

  return {
    keyId: currentKeyId,

    seal(plaintext) {
      const header = `${VERSION}.${currentKeyId}`;
      const aad = Buffer.from(header);
      const dataKey = randomBytes(ENCRYPTION_KEY_BYTES);
      const wrapped = encrypt(keys.current, dataKey, aad);
      const data = encrypt(dataKey, Buffer.from(plaintext, "utf8"), aad);
      return `${header}.${wrapped.toString("base64url")}.${data.toString("base64url")}`;
    },

    open(sealed) {
      const parts = parse(sealed);
      const key = keysById.get(parts.keyId);
      if (!key) throw new SecretUnsealable("unknown-key", parts.keyId);
      const aad = Buffer.from(`${VERSION}.${parts.keyId}`);
      try {
        const dataKey = decrypt(key, parts.wrapped, aad);
        return decrypt(dataKey, parts.data, aad).toString("utf8");
      } catch {
        throw new SecretUnsealable("corrupt", parts.keyId);
      }
    },

    needsReseal(sealed) {
      const { keyId } = parse(sealed);
      return keyId !== currentKeyId && keysById.has(keyId);
    },
  };
}

/** iv + ciphertext + tag */
function encrypt(key: Buffer, plaintext: Buffer, aad: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(aad);
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, ciphertext, cipher.getAuthTag()]);
}

function decrypt(key: Buffer, box: Buffer, aad: Buffer): Buffer {
  const iv = box.subarray(0, IV_BYTES);
  const tag = box.subarray(box.length - TAG_BYTES);
  const decipher = createDecipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  decipher.setAAD(aad);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(box.subarray(IV_BYTES, box.length - TAG_BYTES)), decipher.final()]);
}

function parse(sealed: string): { keyId: string; wrapped: Buffer; data: Buffer } {
  const [version, keyId, wrappedText, dataText, ...rest] = sealed.split(".");
  if (version !== VERSION || keyId === undefined || !KEY_ID.test(keyId) || rest.length > 0) {
    throw new SecretUnsealable("corrupt");
  }
  const wrapped = decodeBase64url(wrappedText);
  const data = decodeBase64url(dataText);
  if (!wrapped || !data || wrapped.length !== WRAPPED_BYTES || data.length < IV_BYTES + TAG_BYTES) {
    throw new SecretUnsealable("corrupt", keyId);
  }
  return { keyId, wrapped, data };
}

/** Only the canonical spelling is accepted, so that every altered character is noticed. */
function decodeBase64url(text: string | undefined): Buffer | undefined {
  if (text === undefined || !BASE64URL.test(text)) return undefined;
  const bytes = Buffer.from(text, "base64url");
  return bytes.toString("base64url") === text ? bytes : undefined;
}
