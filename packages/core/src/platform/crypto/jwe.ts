import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { deflateRawSync, inflateRawSync } from "node:zlib";

/** Bytes of a JWE content key for A256GCM (and of a SMART Health Link key). */
export const JWE_KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The protected header of every file we write: direct key agreement, AES-256-GCM, DEFLATE when compressed. */
export interface JweHeader {
  alg: "dir";
  enc: "A256GCM";
  /** `DEF`: the plaintext was compressed with raw DEFLATE (RFC 1951) before encryption (RFC 7516 §4.1.3). */
  zip?: "DEF";
  cty?: string;
}

export interface JweOptions {
  /** The `cty` header: the media type of the plaintext. */
  contentType?: string;
  /** Compress the plaintext with raw DEFLATE before encrypting (`zip: "DEF"`). */
  compress?: boolean;
}

const b64u = (bytes: Uint8Array | string) => Buffer.from(bytes).toString("base64url");

function checkKey(key: Uint8Array): void {
  if (key.length !== JWE_KEY_BYTES) throw new Error(`A256GCM needs a ${JWE_KEY_BYTES}-byte key`);
}

/**
 * A JWE compact serialization (RFC 7516) of `plaintext`, `alg` "dir" and `enc` "A256GCM":
 * `header..iv.ciphertext.tag` (the encrypted key is empty); the encoded protected header
 * is the additional authenticated data. A fresh random IV on every call. With `compress`,
 * the plaintext is raw-DEFLATEd first and the header says `zip: "DEF"` (as SMART Health
 * Links allow for their files).
 */
export function encryptJwe(plaintext: Uint8Array | string, key: Uint8Array, { contentType, compress = false }: JweOptions = {}): string {
  checkKey(key);
  const header: JweHeader = { alg: "dir", enc: "A256GCM", ...(compress && { zip: "DEF" as const }), ...(contentType !== undefined && { cty: contentType }) };
  const protectedHeader = b64u(JSON.stringify(header));
  const bytes = typeof plaintext === "string" ? Buffer.from(plaintext, "utf8") : plaintext;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(Buffer.from(protectedHeader, "ascii"));
  const ciphertext = Buffer.concat([cipher.update(compress ? deflateRawSync(bytes) : bytes), cipher.final()]);
  return `${protectedHeader}..${b64u(iv)}.${b64u(ciphertext)}.${b64u(cipher.getAuthTag())}`;
}

/**
 * The plaintext of a compact JWE written by encryptJwe (or any "dir" + "A256GCM" JWE, inflated
 * when its header says `zip: "DEF"`); throws when it does not open with `key`.
 */
export function decryptJwe(jwe: string, key: Uint8Array): { header: JweHeader; plaintext: Buffer } {
  checkKey(key);
  const parts = jwe.split(".");
  if (parts.length !== 5) throw new Error("not a JWE compact serialization");
  const [protectedHeader, encryptedKey, iv, ciphertext, tag] = parts as [string, string, string, string, string];
  const header = JSON.parse(Buffer.from(protectedHeader, "base64url").toString("utf8")) as JweHeader;
  if (header.alg !== "dir" || header.enc !== "A256GCM" || encryptedKey !== "") throw new Error("unsupported JWE algorithm");
  if (header.zip !== undefined && header.zip !== "DEF") throw new Error("unsupported JWE compression");
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"), { authTagLength: TAG_BYTES });
  decipher.setAAD(Buffer.from(protectedHeader, "ascii"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  const opened = Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]);
  return { header, plaintext: header.zip === "DEF" ? inflateRawSync(opened) : opened };
}
