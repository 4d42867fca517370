import type { Database } from "@svc/db";
import type { DbClient } from "../platform/index.ts";
import { RateLimiterPrisma, type RateLimiterAbstract } from "rate-limiter-flexible";

/**
 * A fixed-window counter per key in the rate_limits table (model RateLimit), shared by
 * every process on the database: a call costs a delete of its own expired row and one
 * upsert (INSERT … ON CONFLICT DO UPDATE points = points + 1), both by primary key.
 * When the database fails, the call is counted by `insuranceLimiter` instead.
 */
export function rateLimitCounter(
  db: Database,
  options: { keyPrefix: string; points: number; windowSeconds: number; insuranceLimiter: RateLimiterAbstract },
): RateLimiterPrisma {
  return new RateLimiterPrisma({
    storeClient: db,
    tableName: "rateLimit",
    keyPrefix: options.keyPrefix,
    points: options.points,
    duration: options.windowSeconds,
    insuranceLimiter: options.insuranceLimiter,
    // A caller over the limit is refused from memory until its window ends: no query per refusal.
    inMemoryBlockOnConsumed: options.points,
  });
}

/** Deletes the rate-limit counters of these buckets (`tenant:<id>`, `user:<id>`), e.g. of a deleted user. */
export function deleteRateLimitRows(db: DbClient, keys: string[]) {
  return db.rateLimit.deleteMany({ where: { key: { in: keys } } });
}
