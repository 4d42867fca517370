import type { Database } from "@svc/db";
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from "rate-limiter-flexible";
import { AppError } from "../platform/index.ts";
import { rateLimitCounter } from "./rate-limit-repository.ts";
import type { Principal, PrincipalKind } from "./auth.ts";

/** SVC_RATE_LIMIT_*: calls per window of each kind of caller; 0 turns a limit off. */
export interface RateLimitSettings {
  /** Calls of one tenant's keys together; an instance admin key has the same limit of its own. */
  tenant: number;
  /** Calls of one user's tokens together (not counted against the tenant). */
  user: number;
  /** Length of a window in seconds; 0 turns every limit off. */
  windowSeconds: number;
}

const WHOSE: Record<PrincipalKind, string> = {
  tenant: "this tenant's API keys",
  user: "this user's tokens",
  admin: "this instance admin key",
};

/**
 * API rate limits, counted where a caller's secret is resolved to its principal (REST,
 * /trpc, /mcp, uploads). Each bucket has a fixed window that starts at its first call; the
 * counts live in the database so that every api process shares them.
 */
export class RateLimits {
  private readonly counters: Partial<Record<PrincipalKind, { limiter: RateLimiterAbstract; points: number }>> = {};
  private readonly windowSeconds: number;

  constructor(db: Database, settings: RateLimitSettings) {
    this.windowSeconds = settings.windowSeconds;
    if (settings.windowSeconds === 0) return;
    const points: Record<PrincipalKind, number> = { tenant: settings.tenant, user: settings.user, admin: settings.tenant };
    for (const kind of Object.keys(points) as PrincipalKind[]) {
      if (points[kind] === 0) continue;
      const rule = { keyPrefix: kind, points: points[kind], windowSeconds: settings.windowSeconds };
      // A database hiccup must not fail the call: this process then counts alone for a while.
      const insuranceLimiter = new RateLimiterMemory({ keyPrefix: rule.keyPrefix, points: rule.points, duration: rule.windowSeconds });
      this.counters[kind] = { limiter: rateLimitCounter(db, { ...rule, insuranceLimiter }), points: rule.points };
    }
  }

  /** Counts one call of the principal; 429 with Retry-After (whole seconds) above its limit. */
  async consume(principal: Principal): Promise<void> {
    const counter = this.counters[principal.kind];
    if (!counter) return;
    try {
      await counter.limiter.consume(bucketOf(principal));
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const retryAfter = Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw new AppError(
        "too_many_requests",
        `Rate limit reached: at most ${counter.points} calls of ${WHOSE[principal.kind]} in ${this.windowSeconds} seconds. Retry after ${retryAfter} seconds.`,
        { headers: { "Retry-After": String(retryAfter) } },
      );
    }
  }
}

function bucketOf(principal: Principal): string {
  switch (principal.kind) {
    case "tenant":
      return principal.tenantId;
    case "user":
      return principal.userId;
    case "admin":
      return principal.adminKeyId;
  }
}
