import type { Principal } from "./auth.ts";

/**
 * How long a resolved secret is trusted without asking the database again. A change made in
 * this process (key revoked, user or tenant deleted) forgets the affected secrets at once;
 * one made in another process (another api process, the CLI) is seen within this bound.
 */
export const PRINCIPAL_CACHE_TTL_MS = 2_000;
/** At most this many secrets are remembered; the oldest entry goes first. */
const PRINCIPAL_CACHE_MAX_ENTRIES = 10_000;

/** What a change of keys, users or tenants makes stale: every cached principal it matches. */
export type PrincipalChange = { tenantId: string } | { userId: string } | { keyId: string } | { adminKeyId: string };

interface Entry {
  principal: Principal;
  /** Epoch ms after which the entry is not used: the cache bound, or a token's own expiry if sooner. */
  until: number;
}

/**
 * Secret hash -> principal, for a short while. A lookup that was under way while a change was
 * forgotten is not stored (the generation moved), so it cannot bring back what the change ended.
 */
export class PrincipalCache {
  private readonly entries = new Map<string, Entry>();
  private changes = 0;
  private readonly ttlMs: number;
  private readonly maxEntries: number;

  constructor(ttlMs = PRINCIPAL_CACHE_TTL_MS, maxEntries = PRINCIPAL_CACHE_MAX_ENTRIES) {
    this.ttlMs = ttlMs;
    this.maxEntries = maxEntries;
  }

  get(hash: string, now: number): Principal | undefined {
    const entry = this.entries.get(hash);
    if (!entry) return undefined;
    if (now < entry.until) return entry.principal;
    this.entries.delete(hash);
    return undefined;
  }

  /** A stamp to pass to `set`: the entry is dropped if a change was forgotten in between. */
  generation(): number {
    return this.changes;
  }

  set(hash: string, principal: Principal, now: number, generation: number, expiresAt?: Date): void {
    if (generation !== this.changes) return;
    const until = Math.min(now + this.ttlMs, expiresAt?.getTime() ?? Number.POSITIVE_INFINITY);
    if (until <= now) return;
    this.entries.delete(hash);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(hash, { principal, until });
  }

  /** Forgets every principal the change affects; call it after the change is committed. */
  forget(change: PrincipalChange): void {
    this.changes++;
    for (const [hash, { principal }] of this.entries) {
      if (affects(change, principal)) this.entries.delete(hash);
    }
  }

  clear(): void {
    this.changes++;
    this.entries.clear();
  }
}

function affects(change: PrincipalChange, principal: Principal): boolean {
  if ("tenantId" in change) return principal.kind !== "admin" && principal.tenantId === change.tenantId;
  if ("userId" in change) return principal.kind === "user" && principal.userId === change.userId;
  if ("keyId" in change) return principal.kind === "tenant" && principal.keyId === change.keyId;
  return principal.kind === "admin" && principal.adminKeyId === change.adminKeyId;
}

/** The process's cache, used by `authenticate` and told of changes by the services that make them. */
export const principalCache = new PrincipalCache();
