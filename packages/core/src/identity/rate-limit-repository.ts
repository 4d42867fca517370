import type { Database } from "@svc/db";
import type { DbClient } from "../platform/index.ts";
import { RateLimiterPrisma } from "rate-limiter-flexible";

/** A bucket's shared count after an addition. */
export interface SharedCount {
  /** Calls of every process in the window, the ones just added included. */
  count: number;
  /** Milliseconds until the window ends. */
  msLeft: number;
  /** The addition opened a new window (the row was absent or expired). */
  opened: boolean;
}

export interface SharedCounter {
  add(key: string, calls: number): Promise<SharedCount>;
}

/**
 * A fixed-window counter per key in the rate_limits table (model RateLimit), shared by
 * every process on the database: an addition costs a delete of its own expired row and one
 * upsert (INSERT … ON CONFLICT DO UPDATE points = points + n), both by primary key. The
 * library also deletes rows expired for an hour, every 5 minutes.
 */
export function rateLimitCounter(db: Database, options: { windowSeconds: number }): SharedCounter {
  const store = new RateLimiterPrisma({
    storeClient: db,
    tableName: "rateLimit",
    keyPrefix: "",
    duration: options.windowSeconds,
    // The store only counts: RateLimits decides, with each kind of caller's own limit.
    points: Number.MAX_SAFE_INTEGER,
  });
  return {
    async add(key, calls) {
      const res = await store.penalty(key, calls);
      return { count: res.consumedPoints, msLeft: res.msBeforeNext, opened: res.isFirstInDuration };
    },
  };
}

/** Deletes the rate-limit counters of these buckets (`tenant:<id>`, `user:<id>`), e.g. of a deleted user. */
export function deleteRateLimitRows(db: DbClient, keys: string[]) {
  return db.rateLimit.deleteMany({ where: { key: { in: keys } } });
}
