import type { DbClient } from "../platform/index.ts";

/**
 * The types of the user's stored samples of `provider` among `types` whose dedupe key is
 * one of `dedupeKeys` (one row per stored sample): tells which report ids are taken by
 * which kind.
 */
export function findSampleTypesByDedupeKey(
  db: DbClient,
  q: { userId: string; provider: string; types: readonly string[]; dedupeKeys: readonly string[] },
): Promise<Array<{ dedupe_key: string; type: string }>> {
  return db.$queryRaw<Array<{ dedupe_key: string; type: string }>>`
    SELECT dedupe_key, type FROM quantity_samples
    WHERE user_id = ${q.userId}::uuid AND type = ANY(${q.types}::text[]) AND provider = ${q.provider}
      AND dedupe_key = ANY(${q.dedupeKeys}::text[])`;
}
