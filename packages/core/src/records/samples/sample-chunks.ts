import type { DbClient } from "../../platform/index.ts";
import { findChunksByExternalIds, findChunksInHours, newChunkIds, saveChunks, type SampleChunk, SLOTS_PER_CHUNK } from "./sample-chunk-repository.ts";
import { insertSampleSeries, listProviderSeries, listSampleSeries, lockUserSamples, type SampleSeries, type SampleSeriesFields, seriesKey } from "./sample-series-repository.ts";
import { recordIdentity } from "./sample-identity.ts";
import { refreshSampleRollups } from "./sample-rollup-repository.ts";
import { deleteLegacySamplesByExternalIds, findLegacySampleTypesByExternalId } from "./legacy-sample-repository.ts";
import { moveUserLegacySamples } from "./legacy-sample-move.ts";

const HOUR_MS = 3_600_000;

/** A normalized sample ready to store (values already in the storage unit). */
export interface QuantitySampleWrite extends SampleSeriesFields {
  value: number;
  startDate: Date;
  endDate: Date;
  externalId: string | null;
  /** Provider fields as sent (and original_value when converting back is not exact); empty: none. */
  metadata: Record<string, unknown>;
  dedupeKey: string;
}

export interface StoredSamples {
  inserted: number;
  updated: number;
  /** The types of the inserted and updated samples. */
  types: Set<string>;
  /** Each inserted or updated sample (at its new times when it moved). */
  changed: QuantitySampleWrite[];
}

export interface SampleWriteOptions {
  /**
   * The provider's ids each name a sample whose times never change (HealthKit's UUIDs: a
   * sample is never edited, only deleted and saved anew), so a sample sent again is looked
   * for in its own hour only. Without it, a sample with an id not found in its hour is also
   * looked for across all of the user's time: one index search per id, too slow for bulk uploads.
   */
  fixedTimeIds?: boolean;
}

/** Where a stored sample lies. */
interface Slot {
  chunk: SampleChunk;
  slot: number;
}

const hourOf = (t: Date) => new Date(Math.floor(t.getTime() / HOUR_MS) * HOUR_MS);

/**
 * Stores a batch of one user's and provider's samples into their chunks: a sample whose
 * identity (type and dedupe key) is stored is updated in place when anything of it changed
 * (moved when its series or hour changed), a new one goes into the last chunk of its series
 * and hour with a free slot. `tombstoned` dedupe keys are never stored. Call in a transaction.
 */
export async function storeSamples(
  db: DbClient,
  batch: { userId: string; provider: string; rawObjectId: string | null },
  samples: readonly QuantitySampleWrite[],
  options: SampleWriteOptions = {},
): Promise<StoredSamples> {
  const result: StoredSamples = { inserted: 0, updated: 0, types: new Set(), changed: [] };
  if (samples.length === 0) return result;
  await lockUserSamples(db, batch.userId);
  const types = [...new Set(samples.map((s) => s.type))];
  await moveUserLegacySamples(db, batch.userId, types);
  const keys = samples.map(seriesKey);
  const fieldsByKey = new Map(samples.map((s, i) => [keys[i]!, s]));
  const known = await listSampleSeries(db, { userId: batch.userId, types, provider: batch.provider });
  const knownKeys = new Set(known.map(seriesKey));
  const missing = [...fieldsByKey.entries()].filter(([key]) => !knownKeys.has(key)).map(([, fields]) => fields);
  const series = missing.length === 0 ? known : (await insertSampleSeries(db, batch.userId, batch.provider, missing), await listSampleSeries(db, { userId: batch.userId, types, provider: batch.provider }));
  const seriesByKey = new Map(series.map((s) => [seriesKey(s), s]));
  const seriesById = new Map(series.map((s) => [s.id, s]));

  const seriesIds = series.map((s) => s.id);
  const hours = [...new Set(samples.map((s) => hourOf(s.startDate).getTime()))].map((t) => new Date(t));
  const chunks = await findChunksInHours(db, { userId: batch.userId, seriesIds, hours });
  const stored = indexStoredSamples(chunks, seriesById);
  if (!options.fixedTimeIds) {
    // A sample sent again under its provider id may have moved to another hour.
    const moved = samples.filter((s) => s.externalId !== null && !stored.has(identityKey(s))).map((s) => s.externalId!);
    const known = new Set(chunks.map(chunkKey));
    const elsewhere = (await findChunksByExternalIds(db, { userId: batch.userId, seriesIds, externalIds: moved })).filter((c) => !known.has(chunkKey(c)));
    for (const [key, slot] of indexStoredSamples(elsewhere, seriesById)) stored.set(key, slot);
    chunks.push(...elsewhere);
  }
  // The last chunk of a series and hour takes new samples.
  const open = new Map<string, SampleChunk>();
  for (const chunk of chunks.sort(byChunkOrder)) open.set(`${chunk.seriesId}|${chunk.hour.getTime()}`, chunk);
  const fresh: SampleChunk[] = [];
  const changedChunks = new Set<SampleChunk>();
  const now = new Date();

  for (const [i, sample] of samples.entries()) {
    const target = seriesByKey.get(keys[i]!)!;
    const hour = hourOf(sample.startDate);
    const place = stored.get(identityKey(sample));
    if (place) {
      if (!differs(place, target, sample)) continue;
      result.updated++;
      if (place.chunk.seriesId === target.id && place.chunk.hour.getTime() === hour.getTime()) {
        fillSlot(place.chunk, place.slot, sample, batch.rawObjectId, now);
        changedChunks.add(place.chunk);
        result.changed.push(sample);
        continue;
      }
      emptySlot(place.chunk, place.slot);
      changedChunks.add(place.chunk);
    } else {
      result.inserted++;
    }
    const key = `${target.id}|${hour.getTime()}`;
    let chunk = open.get(key);
    if (!chunk || chunk.values.length >= SLOTS_PER_CHUNK) {
      chunk = emptyChunk(target.id, hour);
      open.set(key, chunk);
      fresh.push(chunk);
    }
    fillSlot(chunk, chunk.values.length, sample, batch.rawObjectId, now);
    changedChunks.add(chunk);
    result.changed.push(sample);
  }
  const ids = await newChunkIds(db, fresh.length);
  fresh.forEach((chunk, i) => (chunk.chunkId = ids[i]!));
  await saveChunks(db, batch.userId, [...changedChunks]);
  await refreshSampleRollups(db, batch.userId, [...changedChunks]);
  for (const sample of result.changed) result.types.add(sample.type);
  return result;
}

const identityKey = (s: { type: string; dedupeKey: string }) => `${s.type}\u0000${s.dedupeKey}`;
const chunkKey = (c: SampleChunk) => `${c.seriesId}|${c.hour.getTime()}|${c.chunkId}`;
const byChunkOrder = (a: SampleChunk, b: SampleChunk) =>
  a.seriesId === b.seriesId ? a.hour.getTime() - b.hour.getTime() || Number(a.chunkId - b.chunkId) : a.seriesId < b.seriesId ? -1 : 1;

/** Every stored sample of the chunks by its identity (type and dedupe key). */
function indexStoredSamples(chunks: readonly SampleChunk[], seriesById: ReadonlyMap<bigint, SampleSeries>): Map<string, Slot> {
  const index = new Map<string, Slot>();
  for (const chunk of chunks) {
    const series = seriesById.get(chunk.seriesId)!;
    chunk.values.forEach((value, slot) => {
      if (value === null) return;
      const start = new Date(chunk.hour.getTime() + chunk.startOffsets[slot]!);
      const end = new Date(start.getTime() + chunk.durationsMs[slot]!);
      const dedupeKey = recordIdentity({ externalId: chunk.externalIds[slot] ?? null, start, end, device: series.device, sourceName: series.sourceName });
      index.set(identityKey({ type: series.type, dedupeKey }), { chunk, slot });
    });
  }
  return index;
}

function differs(place: Slot, target: SampleSeries, sample: QuantitySampleWrite): boolean {
  const { chunk, slot } = place;
  return (
    chunk.seriesId !== target.id ||
    chunk.values[slot] !== sample.value ||
    chunk.hour.getTime() + chunk.startOffsets[slot]! !== sample.startDate.getTime() ||
    chunk.durationsMs[slot] !== sample.endDate.getTime() - sample.startDate.getTime() ||
    (chunk.externalIds[slot] ?? null) !== sample.externalId ||
    !sameMetadata(chunk.metadata[slot] ?? null, sample.metadata)
  );
}

/** Metadata as stored (jsonb: keys reordered) against metadata as sent. */
function sameMetadata(stored: Record<string, unknown> | null, sent: Record<string, unknown>): boolean {
  const sentKeys = Object.keys(sent);
  if (stored === null) return sentKeys.length === 0;
  return sentKeys.length === Object.keys(stored).length && canonical(stored) === canonical(sent);
}

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

function emptyChunk(seriesId: bigint, hour: Date): SampleChunk {
  return { seriesId, hour, chunkId: 0n, startOffsets: [], durationsMs: [], values: [], ingestedAt: [], rawObjectIds: [], externalIds: [], metadata: [], legacyIds: [] };
}

function fillSlot(chunk: SampleChunk, slot: number, sample: QuantitySampleWrite, rawObjectId: string | null, now: Date) {
  chunk.startOffsets[slot] = sample.startDate.getTime() - chunk.hour.getTime();
  chunk.durationsMs[slot] = sample.endDate.getTime() - sample.startDate.getTime();
  chunk.values[slot] = sample.value;
  chunk.ingestedAt[slot] = now;
  chunk.rawObjectIds[slot] = rawObjectId;
  chunk.externalIds[slot] = sample.externalId;
  chunk.metadata[slot] = Object.keys(sample.metadata).length > 0 ? sample.metadata : null;
  chunk.legacyIds[slot] ??= null;
}

function emptySlot(chunk: SampleChunk, slot: number) {
  chunk.values[slot] = null;
  chunk.externalIds[slot] = null;
  chunk.metadata[slot] = null;
}

/** Deletes the provider's samples with these provider ids; returns their types and starts. */
export async function deleteSamplesByExternalIds(
  db: DbClient,
  batch: { userId: string; provider: string },
  externalIds: readonly string[],
): Promise<Array<{ type: string; start_date: Date }>> {
  await lockUserSamples(db, batch.userId);
  // Samples not moved yet since the upgrade to chunks are deleted where they are.
  const deleted = await deleteLegacySamplesByExternalIds(db, batch, externalIds);
  const series = await listProviderSeries(db, batch);
  const seriesById = new Map(series.map((s) => [s.id, s]));
  const chunks = await findChunksByExternalIds(db, { userId: batch.userId, seriesIds: series.map((s) => s.id), externalIds });
  const wanted = new Set(externalIds);
  for (const chunk of chunks) {
    chunk.externalIds.forEach((externalId, slot) => {
      if (externalId === null || !wanted.has(externalId) || chunk.values[slot] === null) return;
      deleted.push({ type: seriesById.get(chunk.seriesId)!.type, start_date: new Date(chunk.hour.getTime() + chunk.startOffsets[slot]!) });
      emptySlot(chunk, slot);
    });
  }
  await saveChunks(db, batch.userId, chunks);
  await refreshSampleRollups(db, batch.userId, chunks);
  return deleted;
}

/**
 * The types of the user's stored samples of `provider` among `types` whose provider id is one
 * of `externalIds`, one entry per stored sample.
 */
export async function findSampleTypesByExternalId(
  db: DbClient,
  q: { userId: string; provider: string; types: readonly string[]; externalIds: readonly string[] },
): Promise<Array<{ external_id: string; type: string }>> {
  const series = await listSampleSeries(db, q);
  const typeOf = new Map(series.map((s) => [s.id, s.type]));
  const chunks = await findChunksByExternalIds(db, { userId: q.userId, seriesIds: series.map((s) => s.id), externalIds: q.externalIds });
  const wanted = new Set(q.externalIds);
  const moved = chunks.flatMap((chunk) =>
    chunk.externalIds.flatMap((id, slot) => (id !== null && wanted.has(id) && chunk.values[slot] !== null ? [{ external_id: id, type: typeOf.get(chunk.seriesId)! }] : [])),
  );
  return [...moved, ...(await findLegacySampleTypesByExternalId(db, q))];
}

