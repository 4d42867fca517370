import { findCategoryType } from "../catalog/index.ts";
import { analyzeAfterBulkWrite, type DbClient } from "../../platform/index.ts";
import { lockUserCategorySamples, upsertCategorySamples, type CategorySampleWrite } from "./category-sample-repository.ts";
import { moveUserLegacyCategorySamples } from "./category-sample-move.ts";
import { categorySeries, categorySeriesKey, type CategorySeriesFields } from "./category-sample-series-repository.ts";
import { insertRejectedRecords } from "../rejected-record-repository.ts";
import { recomputeMenstrualCycles, MENSTRUAL_FLOW } from "../menstrual-cycles/menstrual-cycles.ts";
import { partitionRecords, writeSummary } from "../record-batches.ts";
import { identityOf, normalizeProvenance } from "../record-fields.ts";
import { utcDays } from "../utc-days.ts";
import type { RecordBatch, WriteSummary } from "../record-batches.ts";

/** A category sample as a parser produces it: a value from a fixed set (or free text outside the catalog). */
export interface CategorySampleRecord {
  /** snake_case; a catalog type (`menstrual_flow`, `headache`) or a provider's own. */
  type: string;
  /** A value the catalog allows for the type (snake_case, e.g. `heavy`); any text of 1 to 64 characters outside the catalog. */
  value: string;
  start_date: Date;
  /** Missing means an instant (end = start). */
  end_date?: Date | undefined;
  source?: string | null | undefined;
  device?: string | null | undefined;
  on_body?: boolean | undefined;
  source_name?: string | null | undefined;
  source_bundle_id?: string | null | undefined;
  device_model?: string | null | undefined;
  external_id?: string | null | undefined;
  was_user_entered?: boolean | undefined;
  /** IANA zone or ±hh:mm offset where it was recorded (kept as metadata.timezone). */
  timezone?: string | null | undefined;
  metadata?: Record<string, unknown> | undefined;
  locator?: string | undefined;
}

const TYPE_NAME = /^[a-z][a-z0-9_]{0,63}$/;
const MAX_FREE_VALUE = 64;
const CHUNK = 5000;

/** A category sample as stored: its series' fields, its zone and its own fields. */
interface NormalizedCategorySample {
  series: CategorySeriesFields;
  timezone: string | null;
  sample: Omit<CategorySampleWrite, "seriesId" | "timezone">;
}

/**
 * Stores category samples idempotently (identity as for quantity samples: the provider's id,
 * else times, device and source name; a changed value updates), records what it cannot
 * store as rejected records (never quoting a value), and recomputes the user's menstrual
 * cycles when menstrual flow changed. Call inside the caller's transaction: it holds the
 * user's category sample lock until the transaction ends.
 */
export async function writeCategorySamples(
  db: DbClient,
  batch: RecordBatch,
  records: readonly CategorySampleRecord[],
): Promise<WriteSummary> {
  const partitioned = partitionRecords(
    records,
    "category_sample",
    (record) => normalizeCategorySample(record, batch.provider),
    ({ sample }) => `${sample.type}\u0000${sample.dedupeKey}`,
  );
  const normalized = [...partitioned.byIdentity.values()];
  // The user's samples not moved yet since the upgrade to series first: a sample sent again is found by its identity.
  await lockUserCategorySamples(db, batch.userId);
  await moveUserLegacyCategorySamples(db, batch.userId);
  // A series not stored yet takes the zone of its first sample here.
  const newSeries = new Map<string, CategorySeriesFields & { timezone: string | null }>();
  for (const { series, timezone } of normalized) {
    const key = categorySeriesKey(series);
    if (!newSeries.has(key)) newSeries.set(key, { ...series, timezone });
  }
  const stored = await categorySeries(db, batch, [...newSeries.values()]);
  const samples: CategorySampleWrite[] = normalized.map(({ series, timezone, sample }) => {
    const { id, timezone: seriesZone } = stored.get(categorySeriesKey(series))!;
    return { ...sample, seriesId: id, timezone: timezone === seriesZone ? null : (timezone ?? "") };
  });
  const changed = { inserted: 0, updated: 0, types: new Set<string>(), days: new Set<string>() };
  for (let i = 0; i < samples.length; i += CHUNK) {
    const result = await upsertCategorySamples(db, { ...batch, rawObjectId: batch.rawObjectId ?? null }, samples.slice(i, i + CHUNK));
    changed.inserted += result.inserted;
    changed.updated += result.updated;
    for (const row of result.changed) {
      changed.types.add(row.type);
      for (const day of utcDays(row.start_date, row.end_date)) changed.days.add(day);
    }
  }
  await insertRejectedRecords(db, batch, partitioned.rejected);
  await analyzeAfterBulkWrite(db, "category_samples", changed.inserted);
  if (changed.types.has(MENSTRUAL_FLOW)) await recomputeMenstrualCycles(db, batch.userId);
  return writeSummary(partitioned, changed);
}

function normalizeCategorySample(record: CategorySampleRecord, provider: string): NormalizedCategorySample | { reason: string } {
  if (typeof record.type !== "string" || !TYPE_NAME.test(record.type)) {
    return { reason: "type is not a snake_case name of at most 64 characters" };
  }
  const start = record.start_date;
  const end = record.end_date ?? start;
  if (!(start instanceof Date) || !(end instanceof Date) || Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) {
    return { reason: `${record.type}: start or end is not a valid time` };
  }
  if (end < start) return { reason: `${record.type}: end_date is before start_date` };
  const catalogType = findCategoryType(record.type);
  if (typeof record.value !== "string") return { reason: `${record.type}: value is not a string` };
  if (catalogType?.values) {
    if (!catalogType.values.includes(record.value)) {
      return { reason: `${record.type}: value is not one of ${catalogType.values.join(", ")}` };
    }
  } else if (record.value.length === 0 || record.value.length > MAX_FREE_VALUE) {
    return { reason: `${record.type}: value must be 1 to ${MAX_FREE_VALUE} characters` };
  }
  const provenance = normalizeProvenance(record, provider);
  // A zone (text under metadata.timezone) lives with the series, or the sample where it differs; the rest of the metadata with the sample.
  const { timezone, ...own } = provenance.metadata;
  const zone = typeof timezone === "string" && timezone !== "" ? timezone : null;
  const metadata = zone === null ? provenance.metadata : own;
  return {
    series: {
      type: record.type,
      source: provenance.source,
      sourceKey: provenance.sourceKey,
      device: provenance.device,
      onBody: provenance.onBody,
      sourceName: provenance.sourceName,
      sourceBundleId: record.source_bundle_id ?? null,
      deviceModel: record.device_model ?? null,
      wasUserEntered: record.was_user_entered ?? false,
    },
    timezone: zone,
    sample: {
      type: record.type,
      value: record.value,
      startDate: start,
      endDate: end,
      externalId: provenance.externalId,
      metadata: Object.keys(metadata).length === 0 ? null : metadata,
      dedupeKey: identityOf(provenance, start, end),
    },
  };
}
