import { base64UrlToBytes } from "../link/base64url.ts";

/** Raw DEFLATE (RFC 1951) undone with the browser's own DecompressionStream. */
async function inflateRaw(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array<ArrayBuffer>> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * The plaintext of a compact JWE with `alg` "dir" and `enc` "A256GCM" (what a SMART Health
 * Link's file is): `header..iv.ciphertext.tag`, the encoded header as additional data,
 * decrypted with WebCrypto, then inflated when the header says `zip: "DEF"` (shares made
 * before that are not compressed). `onInflate` is called before inflating. Throws when it is
 * not such a JWE or the key does not open it.
 */
export async function decryptJwe(jwe: string, key: Uint8Array<ArrayBuffer>, onInflate?: () => void): Promise<string> {
  const parts = jwe.trim().split(".");
  if (parts.length !== 5) throw new Error("not a compact JWE");
  const [protectedHeader, encryptedKey, iv, ciphertext, tag] = parts as [string, string, string, string, string];
  const header = JSON.parse(new TextDecoder().decode(base64UrlToBytes(protectedHeader))) as { alg?: unknown; enc?: unknown; zip?: unknown };
  if (header.alg !== "dir" || header.enc !== "A256GCM" || encryptedKey !== "") throw new Error("unsupported JWE algorithm");
  if (header.zip !== undefined && header.zip !== "DEF") throw new Error("unsupported JWE compression");
  const cryptoKey = await crypto.subtle.importKey("raw", key, { name: "AES-GCM" }, false, ["decrypt"]);
  const body = base64UrlToBytes(ciphertext);
  const authTag = base64UrlToBytes(tag);
  const sealed = new Uint8Array(body.length + authTag.length);
  sealed.set(body, 0);
  sealed.set(authTag, body.length);
  const opened = new Uint8Array(
    await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: base64UrlToBytes(iv), additionalData: new TextEncoder().encode(protectedHeader), tagLength: 128 },
      cryptoKey,
      sealed,
    ),
  );
  if (header.zip === "DEF") onInflate?.();
  const plaintext = header.zip === "DEF" ? await inflateRaw(opened) : opened;
  return new TextDecoder("utf-8", { fatal: true }).decode(plaintext);
}
