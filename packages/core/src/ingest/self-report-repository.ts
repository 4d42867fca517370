import type { DbClient } from "../platform/index.ts";
import { externalIdHashes } from "../records/index.ts";

/**
 * The types of the user's stored samples of `provider` among `types` whose provider id is
 * one of `externalIds` (one row per stored sample): tells which report ids are taken by
 * which kind.
 */
export function findSampleTypesByExternalId(
  db: DbClient,
  q: { userId: string; provider: string; types: readonly string[]; externalIds: readonly string[] },
): Promise<Array<{ external_id: string; type: string }>> {
  return db.$queryRaw<Array<{ external_id: string; type: string }>>`
    SELECT u.external_id, r.type
    FROM quantity_sample_series r
    JOIN quantity_sample_chunks c ON c.user_id = r.user_id AND c.series_id = r.id
      AND c.external_id_hashes && ${externalIdHashes(q.userId, q.externalIds)}
    CROSS JOIN LATERAL unnest(c.external_ids, c.sample_values) u(external_id, value)
    WHERE r.user_id = ${q.userId}::uuid AND r.provider = ${q.provider} AND r.type = ANY(${[...q.types]}::text[])
      AND u.value IS NOT NULL AND u.external_id = ANY(${[...q.externalIds]}::text[])`;
}
