import { AppError, type DbClient } from "../platform/index.ts";
import type { UserRow } from "./user-repository.ts";
import type { Principal, TokenScope } from "./auth.ts";
import { requireActiveUser } from "./users.ts";
import { readableUserCache } from "./principal-cache.ts";

/**
 * Who may reach one user's records: a tenant key (any user of its tenant) or that user's
 * own token with the route's scope (`read` for reads, `upload` for self reports).
 */
export type ReaderPrincipal = Extract<Principal, { kind: "tenant" | "user" }>;

/** 403 for an instance admin key: its reads go through the admin mirror routes. */
export function requireReaderPrincipal(principal: Principal, scope: TokenScope = "read"): ReaderPrincipal {
  if (principal.kind === "admin") {
    throw new AppError("forbidden", `This route takes a tenant API key or a user token with scope ${scope}, not an instance admin key.`);
  }
  return principal;
}

/**
 * The user whose records are reached. A tenant key reaches any active user of its tenant;
 * a user token needs `scope` (403 without) and reaches only its own user (any other id is
 * 404, as for a user of another tenant).
 */
export async function requireUserInScope(db: DbClient, principal: ReaderPrincipal, userId: string, scope: TokenScope): Promise<UserRow> {
  if (principal.kind === "user") {
    if (!principal.scopes.includes(scope)) throw new AppError("forbidden", `This user token lacks scope ${scope}.`);
    if (principal.userId !== userId) throw new AppError("not_found", "No such user.");
  }
  return requireActiveUser(db, principal.tenantId, userId);
}

/**
 * The user whose records are read: a tenant key, or the user's own token with scope `read`.
 * An active user found here is trusted for the principal cache's bound (readableUserCache):
 * a read is the one thing a user being deleted elsewhere may still get for that long.
 */
export async function requireReadableUser(db: DbClient, principal: ReaderPrincipal, userId: string): Promise<UserRow> {
  const key = `${principal.tenantId}:${userId}`;
  const now = Date.now();
  const cached = readableUserCache.get(key, now);
  if (cached && (principal.kind === "tenant" || (principal.userId === userId && principal.scopes.includes("read")))) return cached;
  const generation = readableUserCache.generation();
  const user = await requireUserInScope(db, principal, userId, "read");
  readableUserCache.set(key, user, now, generation);
  return user;
}

/** The user whose records are uploaded (self reports): a tenant key, or the user's own token with scope `upload`. */
export function requireUploadableUser(db: DbClient, principal: ReaderPrincipal, userId: string): Promise<UserRow> {
  return requireUserInScope(db, principal, userId, "upload");
}
