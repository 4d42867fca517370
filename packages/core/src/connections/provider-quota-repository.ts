import type { DbClient } from "../platform/index.ts";

/** One quota bucket of a provider: `app:<application_id>` or `user:<connection_id>`. */
export interface QuotaBucket {
  provider: string;
  bucket: string;
}

/**
 * Counts one request against the bucket, in one statement: a new window starts when the
 * last one is over; the request is refused (false) while the bucket is paused or `limit`
 * requests were made in the window.
 */
export async function takeQuota(
  db: DbClient,
  bucket: QuotaBucket,
  rule: { limit: number; windowSeconds: number; now: Date },
): Promise<boolean> {
  const windowStartBefore = new Date(rule.now.getTime() - rule.windowSeconds * 1000);
  const rows = await db.$queryRaw<Array<{ used: number }>>`
    INSERT INTO provider_quotas AS q (provider, bucket, window_start, used)
    VALUES (${bucket.provider}, ${bucket.bucket}, ${rule.now}::timestamptz, 1)
    ON CONFLICT (provider, bucket) DO UPDATE SET
      window_start = CASE WHEN q.window_start <= ${windowStartBefore}::timestamptz THEN ${rule.now}::timestamptz ELSE q.window_start END,
      used = CASE WHEN q.window_start <= ${windowStartBefore}::timestamptz THEN 1 ELSE q.used + 1 END
    WHERE (q.paused_until IS NULL OR q.paused_until <= ${rule.now}::timestamptz)
      AND (q.window_start <= ${windowStartBefore}::timestamptz OR q.used < ${rule.limit})
    RETURNING q.used`;
  return rows.length > 0;
}

export function findQuota(db: DbClient, bucket: QuotaBucket) {
  return db.providerQuota.findUnique({
    where: { provider_bucket: bucket },
    select: { windowStart: true, used: true, pausedUntil: true },
  });
}

/** The provider asked to wait: no request of the bucket before `until` (a later pause is kept). */
export async function pauseQuota(db: DbClient, bucket: QuotaBucket, until: Date, now: Date): Promise<void> {
  await db.$executeRaw`
    INSERT INTO provider_quotas AS q (provider, bucket, window_start, used, paused_until)
    VALUES (${bucket.provider}, ${bucket.bucket}, ${now}::timestamptz, 0, ${until}::timestamptz)
    ON CONFLICT (provider, bucket) DO UPDATE SET
      paused_until = GREATEST(COALESCE(q.paused_until, ${until}::timestamptz), ${until}::timestamptz)`;
}

/** Buckets of connections that no longer exist (erased). */
export function deleteOrphanUserQuotas(db: DbClient): Promise<number> {
  return db.$executeRaw`
    DELETE FROM provider_quotas q
    WHERE q.bucket LIKE 'user:%'
      AND NOT EXISTS (SELECT 1 FROM connections c WHERE c.id::text = substring(q.bucket from 6))`;
}

/** Deletes the quota buckets of the user's own connections (`user:<connection id>`); application buckets stay. */
export function deleteUserQuotaBuckets(db: DbClient, userId: string) {
  return db.$executeRaw`
    DELETE FROM provider_quotas q USING connections c
    WHERE c.user_id = ${userId}::uuid AND q.provider = c.provider AND q.bucket = 'user:' || c.id::text`;
}
