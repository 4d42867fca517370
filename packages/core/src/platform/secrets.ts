import { createHash, randomBytes } from "node:crypto";

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const SECRET_BODY_LENGTH = 43; // 43 base62 characters: about 256 bits

export const SECRET_PREFIXES = {
  tenantKey: "svc_sk_",
  userToken: "svc_ut_",
  adminKey: "svc_ak_",
} as const;

export type SecretKind = keyof typeof SECRET_PREFIXES;

const SECRET_PATTERN = /^(svc_sk_|svc_ut_|svc_ak_)[0-9A-Za-z]{43}$/;

/** A new secret: prefix + 43 base62 characters from the system's CSPRNG, without modulo bias. */
export function generateSecret(kind: SecretKind): string {
  let body = "";
  while (body.length < SECRET_BODY_LENGTH) {
    for (const byte of randomBytes(64)) {
      if (byte < 248 && body.length < SECRET_BODY_LENGTH) body += BASE62[byte % 62];
    }
  }
  return SECRET_PREFIXES[kind] + body;
}

/** Secrets are stored and looked up only by this hash. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** The kind of a well-formed secret, or undefined for anything else. */
export function secretKind(secret: string): SecretKind | undefined {
  if (!SECRET_PATTERN.test(secret)) return undefined;
  const prefix = secret.slice(0, 7);
  return (Object.keys(SECRET_PREFIXES) as SecretKind[]).find((kind) => SECRET_PREFIXES[kind] === prefix);
}
