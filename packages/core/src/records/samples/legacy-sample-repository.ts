import { Prisma } from "@svc/db";
import type { DbClient } from "../../platform/index.ts";
import type { QuantitySampleRow } from "./quantity-sample-repository.ts";
import { externalIdentity } from "./sample-identity.ts";

/**
 * quantity_samples_legacy: samples stored one row each before the upgrade to chunks, until the
 * job data-moves moves them (legacy-sample-move.ts; docs/decisions.md, "Online data moves").
 */

/** A row of the legacy table: a sample as reads answer it, its zone and unit as sent inside its metadata. */
export type LegacySampleRow = Omit<QuantitySampleRow, "timezone" | "original_unit" | "outranked"> & {
  source_key: string;
  on_body: boolean;
  raw_object_id: string | null;
};

/** Whether the user has samples of the type not moved yet. */
export async function hasLegacySamples(db: DbClient, userId: string, type: string): Promise<boolean> {
  const rows = await db.$queryRaw<Array<{ found: boolean }>>`
    SELECT EXISTS (SELECT 1 FROM quantity_samples_legacy WHERE user_id = ${userId}::uuid AND type = ${type}) AS found`;
  return rows[0]!.found;
}

/** A user and type with samples not moved yet, the first in index order; undefined when none is left. */
export async function findLegacySampleType(db: DbClient): Promise<{ userId: string; type: string } | undefined> {
  const rows = await db.$queryRaw<Array<{ user_id: string; type: string }>>`
    SELECT user_id::text, type FROM quantity_samples_legacy ORDER BY user_id, type LIMIT 1`;
  return rows[0] && { userId: rows[0].user_id, type: rows[0].type };
}

/**
 * The start of the hour past the first `count` samples of the user's type (at least the hour
 * after the first sample's), or undefined when it has no more than `count`: a batch moves whole
 * hours, so a series' hour goes into chunks at once.
 */
export async function legacyBatchEnd(db: DbClient, q: { userId: string; type: string; count: number }): Promise<Date | undefined> {
  const rows = await db.$queryRaw<Array<{ first: Date; last: Date | null }>>`
    SELECT (SELECT min(start_date) FROM quantity_samples_legacy WHERE user_id = ${q.userId}::uuid AND type = ${q.type}) AS first,
      (SELECT start_date FROM quantity_samples_legacy WHERE user_id = ${q.userId}::uuid AND type = ${q.type}
       ORDER BY start_date, id OFFSET ${q.count} LIMIT 1) AS last`;
  const { first, last } = rows[0]!;
  if (last === null) return undefined;
  const hour = (t: Date) => Math.floor(t.getTime() / 3_600_000) * 3_600_000;
  return new Date(Math.max(hour(last), hour(first) + 3_600_000));
}

/** Deletes the user's samples of the type starting before `end` (all of them without it) from the legacy table and returns them. */
export function takeLegacySamples(db: DbClient, q: { userId: string; type: string; end?: Date | undefined }): Promise<LegacySampleRow[]> {
  return db.$queryRaw<LegacySampleRow[]>`
    DELETE FROM quantity_samples_legacy
    WHERE user_id = ${q.userId}::uuid AND type = ${q.type}${q.end === undefined ? Prisma.empty : Prisma.sql` AND start_date < ${q.end}`}
    RETURNING id, type, value, unit, start_date, end_date, source_name, source_bundle_id, device_model, product_type, external_id,
      is_primary_source, was_user_entered, metadata, provider, source, source_key, device, on_body, ingested_at, raw_object_id`;
}

/** The types of the user's samples not moved yet of `provider` among `types` whose provider id is one of `externalIds`. */
export function findLegacySampleTypesByExternalId(
  db: DbClient,
  q: { userId: string; provider: string; types: readonly string[]; externalIds: readonly string[] },
): Promise<Array<{ external_id: string; type: string }>> {
  return db.$queryRaw<Array<{ external_id: string; type: string }>>`
    SELECT external_id, type FROM quantity_samples_legacy
    WHERE user_id = ${q.userId}::uuid AND type = ANY(${[...q.types]}::text[]) AND provider = ${q.provider}
      AND dedupe_key = ANY(${q.externalIds.map(externalIdentity)}::text[])`;
}

/**
 * Deletes the provider's samples not moved yet with these provider ids (found by the unique key
 * of user, type, provider and dedupe key, skipping over the user's few types); returns their
 * types and starts.
 */
export function deleteLegacySamplesByExternalIds(
  db: DbClient,
  batch: { userId: string; provider: string },
  externalIds: readonly string[],
): Promise<Array<{ type: string; start_date: Date }>> {
  return db.$queryRaw<Array<{ type: string; start_date: Date }>>`
    DELETE FROM quantity_samples_legacy
    WHERE user_id = ${batch.userId}::uuid AND provider = ${batch.provider} AND dedupe_key = ANY(${externalIds.map(externalIdentity)}::text[])
    RETURNING type, start_date`;
}
