import type { Connector } from "../providers/connector.ts";
import type { DbClient } from "../../platform/index.ts";
import { findQuota, pauseQuota, takeQuota, type QuotaBucket } from "../provider-quota-repository.ts";
import type { SyncTrigger } from "../sync-run-repository.ts";
import type { SyncSettings } from "./sync-settings.ts";

/** A bucket with no published quota still counts requests (and can be paused by a 429). */
const UNLIMITED = { requests: 2_147_483_647, windowSeconds: 3600 };

/** Our own count says the provider's quota is spent: wait until `retryAt` (not a failed attempt). */
export class QuotaSpent extends Error {
  readonly retryAt: Date;
  constructor(which: "application" | "user", retryAt: Date) {
    super(`The provider's request quota of the ${which} is spent until ${retryAt.toISOString()}.`);
    this.name = "QuotaSpent";
    this.retryAt = retryAt;
  }
}

/** The buckets a connection's requests count against: its application's (shared by every user of it) and its own. */
export function quotaBucketsOf(provider: string, connection: { id: bigint; applicationId: string }): { app: QuotaBucket; user: QuotaBucket } {
  return {
    app: { provider, bucket: `app:${connection.applicationId}` },
    user: { provider, bucket: `user:${connection.id}` },
  };
}

/**
 * Counts one request of a pull against the provider's quotas, or throws QuotaSpent. A
 * backfill may use only `backfillQuotaShare` of the application's window, so routine
 * pulls of every other user of the application (other tenants on the instance's keys)
 * still find requests left while a big backfill runs.
 */
export async function takeRequestQuota(
  db: DbClient,
  settings: SyncSettings,
  input: { connector: Connector; connection: { id: bigint; applicationId: string }; trigger: SyncTrigger; now: Date },
): Promise<void> {
  const { connector, now } = input;
  const buckets = quotaBucketsOf(connector.slug, input.connection);
  const app = connector.rateLimits.app ?? UNLIMITED;
  const appLimit = input.trigger === "backfill" ? Math.max(1, Math.floor(app.requests * settings.backfillQuotaShare)) : app.requests;
  if (!(await takeQuota(db, buckets.app, { limit: appLimit, windowSeconds: app.windowSeconds, now }))) {
    throw new QuotaSpent("application", await retryTimeOf(db, buckets.app, app.windowSeconds, now));
  }
  const user = connector.rateLimits.user;
  if (user && !(await takeQuota(db, buckets.user, { limit: user.requests, windowSeconds: user.windowSeconds, now }))) {
    throw new QuotaSpent("user", await retryTimeOf(db, buckets.user, user.windowSeconds, now));
  }
}

/** The provider answered 429: no request of the application before `until`, for any of its users. */
export function pauseApplicationQuota(db: DbClient, provider: string, connection: { id: bigint; applicationId: string }, until: Date, now: Date) {
  return pauseQuota(db, quotaBucketsOf(provider, connection).app, until, now);
}

/** When a refused bucket takes requests again: the end of its pause, or of its window. */
async function retryTimeOf(db: DbClient, bucket: QuotaBucket, windowSeconds: number, now: Date): Promise<Date> {
  const row = await findQuota(db, bucket);
  if (!row) return now;
  if (row.pausedUntil && row.pausedUntil > now) return row.pausedUntil;
  return new Date(Math.max(now.getTime(), row.windowStart.getTime() + windowSeconds * 1000));
}
