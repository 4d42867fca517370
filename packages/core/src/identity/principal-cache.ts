import type { Principal } from "./auth.ts";
import { ShortLivedCache } from "../platform/index.ts";
import type { UserRow } from "./user-repository.ts";

/**
 * How long a resolved secret, or an active user a read reaches, is trusted without asking the
 * database again. A change made in this process (key revoked, user or tenant deleted) forgets
 * what it affects at once; one made in another process (another api process, the CLI) is seen
 * within this bound.
 */
export const PRINCIPAL_CACHE_TTL_MS = 2_000;
/** At most this many secrets (and as many users) are remembered; the oldest entry goes first. */
const CACHE_MAX_ENTRIES = 10_000;

/** What a change of keys, users or tenants makes stale: every cached principal or user it matches. */
export type PrincipalChange = { tenantId: string } | { userId: string } | { keyId: string } | { adminKeyId: string };

/** Secret hash -> principal, used by `authenticate`. */
export const principalCache = new ShortLivedCache<Principal>(PRINCIPAL_CACHE_TTL_MS, CACHE_MAX_ENTRIES);

/** `tenantId:userId` -> the active user, used by the read routes' check of the user they read (readers.ts). */
export const readableUserCache = new ShortLivedCache<UserRow>(PRINCIPAL_CACHE_TTL_MS, CACHE_MAX_ENTRIES);

/** Forgets every cached principal and user the change affects; call it after the change is committed. */
export function forgetCachedIdentities(change: PrincipalChange): void {
  principalCache.forgetWhere((principal) => affects(change, principal));
  readableUserCache.forgetWhere((user) => ("userId" in change && user.id === change.userId) || ("tenantId" in change && user.tenantId === change.tenantId));
}

function affects(change: PrincipalChange, principal: Principal): boolean {
  if ("tenantId" in change) return principal.kind !== "admin" && principal.tenantId === change.tenantId;
  if ("userId" in change) return principal.kind === "user" && principal.userId === change.userId;
  if ("keyId" in change) return principal.kind === "tenant" && principal.keyId === change.keyId;
  return principal.kind === "admin" && principal.adminKeyId === change.adminKeyId;
}
