import type { DbClient } from "../../platform/index.ts";

/**
 * One row of quantity_sample_chunks: up to SLOTS_PER_CHUNK samples of one series starting
 * in one hour, each field in an array, in the order the samples were first stored. A slot
 * whose value is null held a sample since deleted; it is never reused, so a sample keeps
 * its id (chunk id * SLOTS_PER_CHUNK + slot, or its legacy id).
 */
export interface SampleChunk {
  seriesId: bigint;
  hour: Date;
  chunkId: bigint;
  startOffsets: number[];
  durationsMs: number[];
  values: Array<number | null>;
  ingestedAt: Date[];
  rawObjectIds: Array<string | null>;
  externalIds: Array<string | null>;
  metadata: Array<Record<string, unknown> | null>;
  legacyIds: Array<bigint | null>;
}

export const SLOTS_PER_CHUNK = 8192;

interface ChunkRow {
  series_id: bigint;
  hour: Date;
  chunk_id: bigint;
  start_offsets: number[];
  durations_ms: Array<bigint | number>;
  sample_values: Array<number | null>;
  ingested_at: Array<Date | string>;
  raw_object_ids: Array<string | null>;
  external_ids: Array<string | null> | null;
  metadata: Array<Record<string, unknown> | string | null> | null;
  legacy_ids: Array<bigint | number | null> | null;
}

function toChunk(row: ChunkRow): SampleChunk {
  const n = row.start_offsets.length;
  return {
    seriesId: BigInt(row.series_id),
    hour: row.hour,
    chunkId: BigInt(row.chunk_id),
    startOffsets: row.start_offsets,
    durationsMs: row.durations_ms.map(Number),
    values: row.sample_values,
    ingestedAt: row.ingested_at.map((t) => new Date(t)),
    rawObjectIds: row.raw_object_ids,
    externalIds: row.external_ids ?? new Array<string | null>(n).fill(null),
    metadata: (row.metadata ?? new Array<null>(n).fill(null)).map((m) => (typeof m === "string" ? (JSON.parse(m) as Record<string, unknown>) : m)),
    legacyIds: (row.legacy_ids ?? new Array<null>(n).fill(null)).map((id) => (id === null ? null : BigInt(id))),
  };
}

/**
 * The chunks a write may change: those of `seriesIds` in `hours`, and those holding a sample
 * whose provider id is one of `externalIds` (wherever in time), oldest chunk first.
 */
export async function findChunksForWrite(
  db: DbClient,
  q: { userId: string; seriesIds: readonly bigint[]; hours: readonly Date[]; externalIds: readonly string[] },
): Promise<SampleChunk[]> {
  if (q.seriesIds.length === 0) return [];
  const rows = await db.$queryRaw<ChunkRow[]>`
    SELECT series_id, hour, chunk_id, start_offsets, durations_ms, sample_values, ingested_at, raw_object_ids,
      external_ids, metadata, legacy_ids
    FROM quantity_sample_chunks
    WHERE user_id = ${q.userId}::uuid AND series_id = ANY(${q.seriesIds.map(String)}::bigint[])
      AND (hour = ANY(${[...q.hours]}::timestamptz[])
        OR external_id_hashes && (SELECT array_agg(hashtextextended(id, 0)) FROM unnest(${[...q.externalIds]}::text[]) id))
    ORDER BY series_id, hour, chunk_id`;
  return rows.map(toChunk);
}

/** The chunks of these series holding a sample whose provider id is one of `externalIds`. */
export async function findChunksByExternalIds(
  db: DbClient,
  q: { userId: string; seriesIds: readonly bigint[]; externalIds: readonly string[] },
): Promise<SampleChunk[]> {
  return findChunksForWrite(db, { ...q, hours: [] });
}

/** Ids for `count` new chunks. */
export async function newChunkIds(db: DbClient, count: number): Promise<bigint[]> {
  if (count === 0) return [];
  const rows = await db.$queryRaw<Array<{ id: bigint }>>`
    SELECT nextval('quantity_sample_chunk_ids') AS id FROM generate_series(1, ${count}::int)`;
  return rows.map((row) => BigInt(row.id));
}

/**
 * Writes chunks whole (new ones and changed ones); a chunk left with no sample is deleted.
 * The samples travel as flat arrays and are grouped back into chunks in SQL.
 */
export async function saveChunks(db: DbClient, userId: string, chunks: readonly SampleChunk[]): Promise<void> {
  const kept = chunks.filter((chunk) => chunk.values.some((value) => value !== null));
  const emptied = chunks.filter((chunk) => !kept.includes(chunk));
  if (emptied.length > 0) {
    await db.$executeRaw`
      DELETE FROM quantity_sample_chunks c
      USING unnest(${emptied.map((c) => String(c.seriesId))}::bigint[], ${emptied.map((c) => c.hour)}::timestamptz[],
        ${emptied.map((c) => String(c.chunkId))}::bigint[]) AS e(series_id, hour, chunk_id)
      WHERE c.user_id = ${userId}::uuid AND c.series_id = e.series_id AND c.hour = e.hour AND c.chunk_id = e.chunk_id`;
  }
  if (kept.length === 0) return;
  const slots = { chunk: [] as number[], slot: [] as number[], start: [] as number[], duration: [] as number[], value: [] as Array<number | null> };
  const more = { ingested: [] as Date[], raw: [] as Array<string | null>, external: [] as Array<string | null>, metadata: [] as Array<string | null>, legacy: [] as Array<string | null> };
  kept.forEach((chunk, index) => {
    for (let slot = 0; slot < chunk.values.length; slot++) {
      slots.chunk.push(index + 1);
      slots.slot.push(slot);
      slots.start.push(chunk.startOffsets[slot]!);
      slots.duration.push(chunk.durationsMs[slot]!);
      slots.value.push(chunk.values[slot]!);
      more.ingested.push(chunk.ingestedAt[slot]!);
      more.raw.push(chunk.rawObjectIds[slot] ?? null);
      more.external.push(chunk.externalIds[slot] ?? null);
      const metadata = chunk.metadata[slot];
      more.metadata.push(metadata ? JSON.stringify(metadata) : null);
      const legacy = chunk.legacyIds[slot];
      more.legacy.push(legacy === null || legacy === undefined ? null : String(legacy));
    }
  });
  await db.$executeRaw`
    INSERT INTO quantity_sample_chunks AS c (user_id, series_id, hour, chunk_id, sample_count, start_offsets, durations_ms,
      sample_values, ingested_at, raw_object_ids, external_ids, external_id_hashes, metadata, legacy_ids)
    SELECT ${userId}::uuid, k.series_id, k.hour, k.chunk_id, count(f.value)::int,
      array_agg(f.start_offset ORDER BY f.slot), array_agg(f.duration_ms ORDER BY f.slot),
      array_agg(f.value ORDER BY f.slot), array_agg(f.ingested_at ORDER BY f.slot), array_agg(f.raw_object_id ORDER BY f.slot),
      CASE WHEN count(f.external_id) > 0 THEN array_agg(f.external_id ORDER BY f.slot) END,
      array_agg(hashtextextended(f.external_id, 0) ORDER BY f.slot) FILTER (WHERE f.external_id IS NOT NULL),
      CASE WHEN count(f.metadata) > 0 THEN array_agg(f.metadata ORDER BY f.slot) END,
      CASE WHEN count(f.legacy_id) > 0 THEN array_agg(f.legacy_id ORDER BY f.slot) END
    FROM unnest(${slots.chunk}::int[], ${slots.slot}::int[], ${slots.start}::int[], ${slots.duration}::bigint[],
      ${slots.value}::float8[], ${more.ingested}::timestamptz[], ${more.raw}::uuid[], ${more.external}::text[],
      ${more.metadata}::jsonb[], ${more.legacy}::bigint[])
      AS f(chunk, slot, start_offset, duration_ms, value, ingested_at, raw_object_id, external_id, metadata, legacy_id)
    JOIN unnest(${kept.map((c) => String(c.seriesId))}::bigint[], ${kept.map((c) => c.hour)}::timestamptz[],
      ${kept.map((c) => String(c.chunkId))}::bigint[]) WITH ORDINALITY AS k(series_id, hour, chunk_id, chunk) USING (chunk)
    GROUP BY k.series_id, k.hour, k.chunk_id
    ON CONFLICT (user_id, series_id, hour, chunk_id) DO UPDATE SET
      sample_count = excluded.sample_count, start_offsets = excluded.start_offsets, durations_ms = excluded.durations_ms,
      sample_values = excluded.sample_values, ingested_at = excluded.ingested_at, raw_object_ids = excluded.raw_object_ids,
      external_ids = excluded.external_ids, external_id_hashes = excluded.external_id_hashes,
      metadata = excluded.metadata, legacy_ids = excluded.legacy_ids`;
}
