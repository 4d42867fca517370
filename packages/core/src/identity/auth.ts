import { AppError, type DbClient, hashSecret, type SecretKind, secretKind } from "../platform/index.ts";
import { findActiveAdminKey } from "./admin-key-repository.ts";
import { principalCache } from "./principal-cache.ts";
import { findActiveTenantKey } from "./tenant-repository.ts";
import { findUnexpiredToken } from "./user-token-repository.ts";

export type TokenScope = "upload" | "connect" | "read";

export type Principal =
  | { kind: "tenant"; tenantId: string; keyId: string }
  | { kind: "user"; tenantId: string; userId: string; scopes: TokenScope[]; tokenId: string }
  | { kind: "admin"; adminKeyId: string };

export type PrincipalKind = Principal["kind"];

const invalidSecret = () => new AppError("unauthorized", "The bearer secret is missing, wrong or expired.");

/** Reads `Authorization: Bearer <secret>`; undefined when the header is absent or not Bearer. */
export function bearerSecret(header: string | undefined): string | undefined {
  const match = /^Bearer +(\S+) *$/i.exec(header ?? "");
  return match?.[1];
}

/**
 * Resolves a bearer secret to its principal by SHA-256 hash. Anything missing, malformed,
 * unknown, revoked or expired is 401, and so is a token of a user being deleted. A resolved
 * secret is remembered briefly (principal-cache.ts): a steady caller costs no query.
 */
export async function authenticate(db: DbClient, secret: string | undefined, now = new Date()): Promise<Principal> {
  const kind = secret === undefined ? undefined : secretKind(secret);
  if (!secret || !kind) throw invalidSecret();
  const hash = hashSecret(secret);
  const cached = principalCache.get(hash, now.getTime());
  if (cached) return cached;
  const generation = principalCache.generation();
  const { principal, expiresAt } = await lookUp(db, kind, hash, now);
  principalCache.set(hash, principal, now.getTime(), generation, expiresAt);
  return principal;
}

async function lookUp(
  db: DbClient,
  kind: SecretKind,
  hash: string,
  now: Date,
): Promise<{ principal: Principal; expiresAt?: Date }> {
  switch (kind) {
    case "tenantKey": {
      const key = await findActiveTenantKey(db, hash);
      if (!key) throw invalidSecret();
      return { principal: { kind: "tenant", tenantId: key.tenantId, keyId: key.id } };
    }
    case "userToken": {
      const token = await findUnexpiredToken(db, hash, now);
      if (!token || token.user.status !== "active") throw invalidSecret();
      const principal: Principal = {
        kind: "user",
        tenantId: token.user.tenantId,
        userId: token.user.id,
        scopes: token.scopes as TokenScope[],
        tokenId: token.id,
      };
      return { principal, expiresAt: token.expiresAt };
    }
    case "adminKey": {
      const key = await findActiveAdminKey(db, hash);
      if (!key) throw invalidSecret();
      return { principal: { kind: "admin", adminKeyId: key.id } };
    }
  }
}

const ROUTE_NAMES: Record<PrincipalKind, string> = {
  tenant: "a tenant API key",
  user: "a user token",
  admin: "an instance admin key",
};

/** 403 when a valid secret of another kind calls a route. */
export function requirePrincipalKind<K extends PrincipalKind>(
  principal: Principal,
  kind: K,
): Extract<Principal, { kind: K }> {
  if (principal.kind !== kind) {
    throw new AppError("forbidden", `This route takes ${ROUTE_NAMES[kind]}, not ${ROUTE_NAMES[principal.kind]}.`);
  }
  return principal as Extract<Principal, { kind: K }>;
}
