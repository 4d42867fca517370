import { AppError, type DbClient, generateSecret, hashSecret } from "../platform/index.ts";
import { insertUserToken } from "./user-token-repository.ts";
import type { TokenScope } from "./auth.ts";
import { requireActiveUser } from "./users.ts";

export const TOKEN_TTL = {
  defaultSeconds: 3600,
  maxSeconds: 86_400,
  /** A token whose only scope is `read` may live this long. */
  maxReadOnlySeconds: 2_592_000,
} as const;

export interface MintedToken {
  token: string;
  expires_at: string;
  scopes: TokenScope[];
}

export async function mintUserToken(
  db: DbClient,
  tenantId: string,
  userId: string,
  input: { scopes: TokenScope[]; ttl_seconds?: number | undefined },
  now = new Date(),
): Promise<MintedToken> {
  await requireActiveUser(db, tenantId, userId);
  const scopes = [...new Set(input.scopes)];
  const readOnly = scopes.length === 1 && scopes[0] === "read";
  const max = readOnly ? TOKEN_TTL.maxReadOnlySeconds : TOKEN_TTL.maxSeconds;
  const ttl = input.ttl_seconds ?? TOKEN_TTL.defaultSeconds;
  if (ttl > max) {
    throw new AppError(
      "bad_request",
      readOnly
        ? `ttl_seconds may be at most ${max} for a read-only token.`
        : `ttl_seconds may be at most ${max}; only a token whose only scope is read may live up to ${TOKEN_TTL.maxReadOnlySeconds}.`,
    );
  }
  const token = generateSecret("userToken");
  const expiresAt = new Date(now.getTime() + ttl * 1000);
  await insertUserToken(db, { userId, tokenHash: hashSecret(token), scopes, expiresAt });
  return { token, expires_at: expiresAt.toISOString(), scopes };
}
