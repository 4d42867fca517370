import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

const SALT_BYTES = 16;
const HASH_BYTES = 32;
/** scrypt cost (N = 2^15, r = 8, p = 1: about 32 MiB and tens of milliseconds per check). */
const COST = { N: 32_768, r: 8, p: 1, maxmem: 64 * 1024 * 1024 } as const;

function derive(passcode: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(passcode.normalize("NFC"), salt, HASH_BYTES, options, (error, hash) => (error ? reject(error) : resolve(hash)));
  });
}

/** A salted scrypt hash of a passcode for storage: `scrypt$N$r$p$<salt>$<hash>` (base64url). */
export async function hashPasscode(passcode: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const hash = await derive(passcode, salt, COST);
  return ["scrypt", COST.N, COST.r, COST.p, salt.toString("base64url"), hash.toString("base64url")].join("$");
}

/** Whether `passcode` matches the stored hash; the hashes are compared in constant time. */
export async function verifyPasscode(passcode: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split("$");
  if (scheme !== "scrypt" || !n || !r || !p || salt === undefined || hash === undefined) return false;
  const expected = Buffer.from(hash, "base64url");
  const actual = await derive(passcode, Buffer.from(salt, "base64url"), { N: Number(n), r: Number(r), p: Number(p), maxmem: COST.maxmem });
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
