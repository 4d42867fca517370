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
  /** Adds the calls, opening a new window when the row is absent or expired. */
  add(key: string, calls: number): Promise<SharedCount>;
  /**
   * Adds the calls to the window the row holds now; undefined when it holds none (expired, or
   * deleted with its tenant or user): a call made before a deletion must not bring the row back.
   */
  addToOpenWindow(key: string, calls: number): Promise<SharedCount | undefined>;
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
    async addToOpenWindow(key, calls) {
      const [row] = await db.$queryRaw<Array<{ points: number; ms_left: number }>>`
        UPDATE rate_limits SET points = points + ${calls}::int
        WHERE key = ${key} AND expire > now()
        RETURNING points, greatest(0, round(date_part('epoch', expire - now()) * 1000))::int AS ms_left`;
      return row && { count: row.points, msLeft: row.ms_left, opened: false };
    },
  };
}

/** Deletes the rate-limit counters of these buckets (`tenant:<id>`, `user:<id>`), e.g. of a deleted user. */
export function deleteRateLimitRows(db: DbClient, keys: string[]) {
  return db.rateLimit.deleteMany({ where: { key: { in: keys } } });
}
