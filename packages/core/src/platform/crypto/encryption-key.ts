import { createHash } from "node:crypto";

/** Key-encryption keys are AES-256 keys: 32 bytes. */
export const ENCRYPTION_KEY_BYTES = 32;

const HEX_KEY = /^[0-9a-fA-F]{64}$/;
// 32 bytes are 43 base64 characters plus one "=" of padding; standard and url-safe alphabets.
const BASE64_KEY = /^[A-Za-z0-9+/_-]{43}=?$/;

/**
 * Reads a 32-byte key written as base64 (standard or url-safe, padded or not) or as 64 hex
 * characters. Anything else throws an error that names `name` and never echoes the value.
 */
export function parseEncryptionKey(value: string, name: string): Buffer {
  const text = value.trim();
  if (HEX_KEY.test(text)) return Buffer.from(text, "hex");
  if (BASE64_KEY.test(text)) {
    // Node's base64 decoder reads both alphabets.
    const key = Buffer.from(text, "base64");
    if (key.length === ENCRYPTION_KEY_BYTES) return key;
  }
  throw new Error(
    `${name} must be ${ENCRYPTION_KEY_BYTES} random bytes written as base64 (44 characters, or 43 without padding) ` +
      "or as 64 hex characters; generate one with `openssl rand -base64 32`.",
  );
}

/** A comma-separated list of keys, each as parseEncryptionKey reads it; empty entries are skipped. */
export function parseEncryptionKeyList(value: string, name: string): Buffer[] {
  const entries = value.split(",").map((entry) => entry.trim()).filter((entry) => entry !== "");
  return entries.map((entry, index) => parseEncryptionKey(entry, `${name} (entry ${index + 1} of ${entries.length})`));
}

/** The key id stored with each sealed secret: the first 16 hex characters of SHA-256 of the key. */
export function encryptionKeyId(key: Buffer): string {
  return createHash("sha256").update(key).digest("hex").slice(0, 16);
}
