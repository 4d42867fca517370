import { findQuantityType, fromStorageUnit, toStorageUnit } from "../catalog/index.ts";
import { type DbClient, isTimeZone } from "../../platform/index.ts";
import { type QuantitySampleWrite, type SampleWriteOptions, storeSamples } from "./sample-chunks.ts";
import { recordIdentity } from "./sample-identity.ts";
import { listTombstonedKeys } from "../tombstone-repository.ts";
import { insertRejectedRecords } from "../rejected-record-repository.ts";
import { upsertSampleStreams, type SampleStreamWrite } from "./sample-stream-repository.ts";
import { affectsDailyTotals, refreshDerivedDailyTotals } from "../daily/daily-totals.ts";
import { UtcDaySet } from "../utc-days.ts";
import { partitionRecords, writeSummary, type RecordBatch, type WriteSummary } from "../record-batches.ts";

export type { RecordBatch, WriteSummary };

/** A quantity sample as a parser produces it, before unit conversion. */
export interface QuantitySampleRecord {
  type: string;
  value: number;
  /** Any common spelling; missing means the storage unit of the type. */
  unit?: string | undefined;
  start_date: Date;
  /** Missing means an instant (end = start). */
  end_date?: Date | undefined;
  /** The vendor that produced it, when known (lower-case slug, e.g. `apple`, `garmin`). */
  source?: string | null | undefined;
  device?: string | null | undefined;
  /** A stream worn on the body (a watch, a ring, a strap) rather than a phone in a pocket. */
  on_body?: boolean | undefined;
  source_name?: string | null | undefined;
  source_bundle_id?: string | null | undefined;
  device_model?: string | null | undefined;
  product_type?: string | null | undefined;
  external_id?: string | null | undefined;
  is_primary_source?: boolean | undefined;
  was_user_entered?: boolean | undefined;
  /** IANA zone or ±hh:mm offset where it was recorded. */
  timezone?: string | null | undefined;
  /** Provider fields as sent. */
  metadata?: Record<string, unknown> | undefined;
  /** Where in the raw object (line, index), kept with a rejected record. */
  locator?: string | undefined;
}

const TYPE_NAME = /^[a-z][a-z0-9_]{0,63}$/;
const CHUNK = 5000;
/** A sample lasts at most about 68 years: its stream keeps the longest duration in whole seconds (an int4). */
const MAX_DURATION_MS = 2_147_483_647 * 1000;

/**
 * Normalizes and stores quantity samples idempotently: converts to the storage unit
 * (keeping original_value and original_unit in metadata), stores a sample seen before
 * once and updates it when its value changed, records what it cannot store as rejected
 * records (never quoting a value), and keeps the user's sample streams current.
 * Call inside the caller's transaction.
 */
export async function writeQuantitySamples(
  db: DbClient,
  batch: RecordBatch,
  records: readonly QuantitySampleRecord[],
  options: SampleWriteOptions & {
    /**
     * When given, the UTC days whose derived daily totals this write made stale are added
     * here for the caller to refresh once (refreshDerivedDailyTotals), after its last batch,
     * rather than by this call: an upload written in many batches then reads each day once.
     */
    staleDailyTotals?: Set<string>;
  } = {},
): Promise<WriteSummary> {
  const partitioned = partitionRecords(
    records,
    "quantity_sample",
    (record) => normalizeSample(record, batch.provider),
    (sample) => `${sample.type}\u0000${sample.dedupeKey}`,
  );
  const tombstoned = await listTombstonedKeys(db, batch, "quantity_sample", [...partitioned.byIdentity.values()].map((s) => s.dedupeKey));
  const samples = [...partitioned.byIdentity.values()].filter((s) => !tombstoned.has(s.dedupeKey));
  const changed = { inserted: 0, updated: 0, types: new Set<string>(), days: new UtcDaySet() };
  for (let i = 0; i < samples.length; i += CHUNK) {
    const result = await storeSamples(db, { ...batch, rawObjectId: batch.rawObjectId ?? null }, samples.slice(i, i + CHUNK), options);
    changed.inserted += result.inserted;
    changed.updated += result.updated;
    for (const type of result.types) changed.types.add(type);
    for (const sample of result.changed) changed.days.add(sample.startDate, sample.endDate);
  }
  await upsertSampleStreams(db, batch.userId, streamsOf(batch.provider, samples));
  await insertRejectedRecords(db, batch, partitioned.rejected);
  if (affectsDailyTotals(changed.types)) {
    if (options.staleDailyTotals) for (const day of changed.days.dates()) options.staleDailyTotals.add(day);
    else await refreshDerivedDailyTotals(db, batch.userId, batch.provider, changed.days.dates());
  }
  return writeSummary(partitioned, { ...changed, days: changed.days.dates() });
}

function normalizeSample(record: QuantitySampleRecord, provider: string): QuantitySampleWrite | { reason: string } {
  if (!TYPE_NAME.test(record.type)) return { reason: "type is not a snake_case name of at most 64 characters" };
  const start = record.start_date;
  const end = record.end_date ?? start;
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) return { reason: `${record.type}: start or end is not a valid time` };
  if (end < start) return { reason: `${record.type}: end_date is before start_date` };
  if (end.getTime() - start.getTime() > MAX_DURATION_MS) return { reason: `${record.type}: lasts longer than 68 years` };
  if (!Number.isFinite(record.value)) return { reason: `${record.type}: value is not a finite number` };
  const catalogType = findQuantityType(record.type);
  let value = record.value;
  let unit = record.unit ?? "";
  const metadata: Record<string, unknown> = { ...record.metadata };
  let originalUnit: string | null = null;
  if (catalogType) {
    const converted = toStorageUnit(catalogType, record.value, record.unit);
    if ("error" in converted) return { reason: converted.error };
    value = converted.value;
    unit = converted.unit;
    if (converted.original_unit !== converted.unit) {
      // The series keeps the unit as sent; the value as sent is derived on read unless converting back misses it.
      originalUnit = converted.original_unit;
      delete metadata.original_unit;
      if (fromStorageUnit(catalogType, value, originalUnit) === converted.original_value) delete metadata.original_value;
      else metadata.original_value = converted.original_value;
    }
  } else if (!unit) {
    return { reason: `${record.type}: a type outside the catalog needs a unit` };
  }
  const timezone = record.timezone && isTimeZone(record.timezone) ? record.timezone : null;
  // The series keeps the zone.
  if (timezone) delete metadata.timezone;
  const source = record.source ?? null;
  const device = record.device ?? null;
  const externalId = record.external_id ?? null;
  return {
    type: record.type,
    value,
    unit,
    startDate: start,
    endDate: end,
    sourceName: record.source_name ?? null,
    sourceBundleId: record.source_bundle_id ?? null,
    deviceModel: record.device_model ?? null,
    productType: record.product_type ?? null,
    externalId,
    isPrimarySource: record.is_primary_source ?? true,
    wasUserEntered: record.was_user_entered ?? false,
    metadata,
    source,
    sourceKey: source ?? provider,
    device,
    onBody: record.on_body ?? false,
    timezone,
    originalUnit,
    dedupeKey: recordIdentity({ externalId, start, end, device, sourceName: record.source_name ?? null }),
  };
}

function streamsOf(provider: string, samples: readonly QuantitySampleWrite[]): SampleStreamWrite[] {
  const streams = new Map<string, SampleStreamWrite>();
  for (const s of samples) {
    const key = `${s.type}\u0000${s.sourceKey}\u0000${s.onBody}`;
    const seconds = Math.ceil((s.endDate.getTime() - s.startDate.getTime()) / 1000);
    const known = streams.get(key);
    if (!known) {
      streams.set(key, { type: s.type, provider, sourceKey: s.sourceKey, onBody: s.onBody, maxDurationSeconds: seconds, firstStart: s.startDate, lastStart: s.startDate });
    } else {
      known.maxDurationSeconds = Math.max(known.maxDurationSeconds, seconds);
      if (s.startDate < known.firstStart) known.firstStart = s.startDate;
      if (s.startDate > known.lastStart) known.lastStart = s.startDate;
    }
  }
  return [...streams.values()];
}
