import type { Database } from "@svc/db";
import type { DbClient } from "../../platform/index.ts";
import type { LegacyMove } from "../legacy-moves.ts";
import { newChunkIds, saveChunks, type SampleChunk, SLOTS_PER_CHUNK } from "./sample-chunk-repository.ts";
import { findLegacySampleType, hasLegacySamples, legacyBatchEnd, type LegacySampleRow, takeLegacySamples } from "./legacy-sample-repository.ts";
import { insertSampleSeries, listSampleSeries, lockUserSamples, type SampleSeriesFields, seriesKey } from "./sample-series-repository.ts";
import { refreshSampleRollups } from "./sample-rollup-repository.ts";
import { type SampleStreamWrite, upsertSampleStreams } from "./sample-stream-repository.ts";

/**
 * Moves samples stored one row each before the upgrade to chunks (quantity_samples_legacy) into
 * chunks, as the upgrade did inside its migration before: per series and hour, in the order of
 * their ids, which they keep. Until then reads take them from the legacy table, and a writer
 * moves the user's samples of the types it writes first (moveUserLegacySamples), so the hours a
 * batch moves never meet chunks written since the upgrade; deletions delete from both tables.
 */

/** Samples a batch of the job moves at most (whole hours: more when one hour holds more). */
const BATCH_SAMPLES = 20_000;
const HOUR_MS = 3_600_000;

export const quantitySampleMove: LegacyMove = {
  table: "quantity_samples_legacy",
  moveBatch: (db) => moveLegacySampleBatch(db),
};

/**
 * Moves the first hours of the first user and type with samples not moved yet, up to
 * `maxSamples` samples (more when one hour holds more), in one transaction under the user's
 * sample lock; returns how many, 0 when none is left.
 */
export async function moveLegacySampleBatch(db: Database, maxSamples = BATCH_SAMPLES): Promise<number> {
  // A writer may have moved the user found before the lock was taken: then the next one.
  for (let next = await findLegacySampleType(db); next; next = await findLegacySampleType(db)) {
    const { userId, type } = next;
    const moved = await db.$transaction(
      async (tx) => {
        await lockUserSamples(tx, userId);
        const end = await legacyBatchEnd(tx, { userId, type, count: maxSamples });
        return moveSamples(tx, userId, await takeLegacySamples(tx, { userId, type, end }));
      },
      { timeout: 120_000 },
    );
    if (moved > 0) return moved;
  }
  return 0;
}

/**
 * Moves every sample of the user of these types not moved yet, a batch at a time, in the
 * caller's transaction, which holds the user's sample lock: a writer calls it for the types it
 * writes. One index probe per type when none is left.
 */
export async function moveUserLegacySamples(db: DbClient, userId: string, types: Iterable<string>): Promise<void> {
  for (const type of types) {
    if (!(await hasLegacySamples(db, userId, type))) continue;
    for (let more = true; more; ) {
      const end = await legacyBatchEnd(db, { userId, type, count: BATCH_SAMPLES });
      await moveSamples(db, userId, await takeLegacySamples(db, { userId, type, end }));
      more = end !== undefined;
    }
  }
}

/** Stores rows taken from the legacy table (whole hours of one type) in new chunks; returns how many. */
async function moveSamples(db: DbClient, userId: string, rows: readonly LegacySampleRow[]): Promise<number> {
  if (rows.length === 0) return 0;
  const seriesIds = await seriesOf(db, userId, rows);
  const groups = new Map<string, LegacySampleRow[]>();
  for (const row of [...rows].sort((a, b) => (a.id < b.id ? -1 : 1))) {
    const key = `${seriesIds.get(row)}|${hourOf(row.start_date)}`;
    const group = groups.get(key);
    if (group) group.push(row);
    else groups.set(key, [row]);
  }
  const chunks: SampleChunk[] = [];
  for (const group of groups.values()) {
    for (let from = 0; from < group.length; from += SLOTS_PER_CHUNK) chunks.push(toChunk(seriesIds.get(group[0]!)!, group.slice(from, from + SLOTS_PER_CHUNK)));
  }
  const ids = await newChunkIds(db, chunks.length);
  chunks.forEach((chunk, i) => (chunk.chunkId = ids[i]!));
  await saveChunks(db, userId, chunks);
  await refreshSampleRollups(db, userId, chunks);
  await upsertSampleStreams(db, userId, streamsOf(rows));
  return rows.length;
}

const hourOf = (t: Date) => Math.floor(t.getTime() / HOUR_MS) * HOUR_MS;

/** What a legacy row's series holds: its metadata's zone and unit as sent, and every shared field. */
function seriesFields(row: LegacySampleRow): SampleSeriesFields {
  return {
    type: row.type,
    unit: row.unit,
    source: row.source,
    sourceKey: row.source_key,
    device: row.device,
    onBody: row.on_body,
    sourceName: row.source_name,
    sourceBundleId: row.source_bundle_id,
    deviceModel: row.device_model,
    productType: row.product_type,
    isPrimarySource: row.is_primary_source,
    wasUserEntered: row.was_user_entered,
    timezone: stringField(row.metadata.timezone),
    originalUnit: stringField(row.metadata.original_unit),
  };
}

const stringField = (value: unknown): string | null => (typeof value === "string" ? value : null);

/** The series of each row, stored first where missing. */
async function seriesOf(db: DbClient, userId: string, rows: readonly LegacySampleRow[]): Promise<Map<LegacySampleRow, bigint>> {
  const byProvider = new Map<string, Map<string, SampleSeriesFields>>();
  for (const row of rows) {
    const fields = seriesFields(row);
    const of = byProvider.get(row.provider) ?? new Map<string, SampleSeriesFields>();
    of.set(seriesKey(fields), fields);
    byProvider.set(row.provider, of);
  }
  for (const [provider, fields] of byProvider) await insertSampleSeries(db, userId, provider, [...fields.values()]);
  const stored = await listSampleSeries(db, { userId, types: [...new Set(rows.map((row) => row.type))] });
  const idByKey = new Map(stored.map((s) => [`${s.provider}|${seriesKey(s)}`, s.id]));
  return new Map(rows.map((row) => [row, idByKey.get(`${row.provider}|${seriesKey(seriesFields(row))}`)!]));
}

/** One chunk of a series' samples of one hour, in the order of their ids. */
function toChunk(seriesId: bigint, rows: readonly LegacySampleRow[]): SampleChunk {
  const hour = hourOf(rows[0]!.start_date);
  return {
    seriesId,
    hour: new Date(hour),
    chunkId: 0n,
    startOffsets: rows.map((row) => row.start_date.getTime() - hour),
    durationsMs: rows.map((row) => row.end_date.getTime() - row.start_date.getTime()),
    values: rows.map((row) => row.value),
    ingestedAt: rows.map((row) => row.ingested_at),
    rawObjectIds: rows.map((row) => row.raw_object_id),
    externalIds: rows.map((row) => row.external_id),
    metadata: rows.map((row) => ownMetadata(row.metadata)),
    legacyIds: rows.map((row) => row.id),
  };
}

/** The metadata a sample keeps itself: what its series does not (zone, unit as sent); null when none. */
function ownMetadata(metadata: Record<string, unknown>): Record<string, unknown> | null {
  const { timezone: _zone, original_unit: _unit, ...own } = metadata;
  return Object.keys(own).length > 0 ? own : null;
}

/** The streams of the rows, spanning them (the upgrade's streams may not). */
function streamsOf(rows: readonly LegacySampleRow[]): SampleStreamWrite[] {
  const streams = new Map<string, SampleStreamWrite>();
  for (const row of rows) {
    const key = JSON.stringify([row.type, row.provider, row.source_key, row.on_body]);
    const seconds = Math.ceil((row.end_date.getTime() - row.start_date.getTime()) / 1000);
    const stream = streams.get(key);
    if (!stream) {
      streams.set(key, { type: row.type, provider: row.provider, sourceKey: row.source_key, onBody: row.on_body, maxDurationSeconds: seconds, firstStart: row.start_date, lastStart: row.start_date });
      continue;
    }
    stream.maxDurationSeconds = Math.max(stream.maxDurationSeconds, seconds);
    if (row.start_date < stream.firstStart) stream.firstStart = row.start_date;
    if (row.start_date > stream.lastStart) stream.lastStart = row.start_date;
  }
  return [...streams.values()];
}
