import { Prisma } from "@svc/db";
import type { DbClient } from "../../platform/index.ts";
import { bloomTester, externalIdBloom } from "./external-id-bloom.ts";
import { fromExternalIdColumns, toExternalIdColumns } from "./external-id-columns.ts";

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
  external_uuids: Array<string | null> | null;
  external_uuids_lowercase: boolean;
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
    externalIds: fromExternalIdColumns({ texts: row.external_ids, uuids: row.external_uuids, lowercase: row.external_uuids_lowercase }, n),
    metadata: (row.metadata ?? new Array<null>(n).fill(null)).map((m) => (typeof m === "string" ? (JSON.parse(m) as Record<string, unknown>) : m)),
    legacyIds: (row.legacy_ids ?? new Array<null>(n).fill(null)).map((id) => (id === null ? null : BigInt(id))),
  };
}

const CHUNK_COLUMNS = Prisma.raw(`series_id, hour, chunk_id, start_offsets, durations_ms, sample_values, ingested_at,
  raw_object_ids, external_ids, external_uuids, external_uuids_lowercase, metadata, legacy_ids`);

/** The chunks of `seriesIds` in `hours`, oldest chunk first (PostgreSQL reads only the partitions of these hours). */
export async function findChunksInHours(
  db: DbClient,
  q: { userId: string; seriesIds: readonly bigint[]; hours: readonly Date[] },
): Promise<SampleChunk[]> {
  if (q.seriesIds.length === 0 || q.hours.length === 0) return [];
  const rows = await db.$queryRaw<ChunkRow[]>`
    SELECT ${CHUNK_COLUMNS} FROM quantity_sample_chunks
    WHERE user_id = ${q.userId}::uuid AND series_id = ANY(${q.seriesIds.map(String)}::bigint[]) AND hour = ANY(${[...q.hours]}::timestamptz[])
    ORDER BY series_id, hour, chunk_id`;
  return rows.map(toChunk);
}

/**
 * The chunks of these series that may hold a sample whose provider id is one of `externalIds`,
 * wherever in time, oldest chunk first: those whose Bloom filter says so (external-id-bloom.ts),
 * read after every filter of the series. The caller compares the ids exactly.
 */
export async function findChunksByExternalIds(
  db: DbClient,
  q: { userId: string; seriesIds: readonly bigint[]; externalIds: readonly string[] },
): Promise<SampleChunk[]> {
  if (q.seriesIds.length === 0 || q.externalIds.length === 0) return [];
  const filters = await db.$queryRaw<Array<{ series_id: bigint; hour: Date; chunk_id: bigint; external_id_bloom: Uint8Array }>>`
    SELECT series_id, hour, chunk_id, external_id_bloom FROM quantity_sample_chunks
    WHERE user_id = ${q.userId}::uuid AND series_id = ANY(${q.seriesIds.map(String)}::bigint[]) AND external_id_bloom IS NOT NULL`;
  const mayHold = bloomTester(q.externalIds);
  const candidates = filters.filter((row) => mayHold(row.external_id_bloom));
  if (candidates.length === 0) return [];
  const rows = await db.$queryRaw<ChunkRow[]>`
    SELECT ${CHUNK_COLUMNS} FROM quantity_sample_chunks
    JOIN unnest(${candidates.map((c) => String(c.series_id))}::bigint[], ${candidates.map((c) => c.hour)}::timestamptz[],
      ${candidates.map((c) => String(c.chunk_id))}::bigint[]) AS k(series_id, hour, chunk_id) USING (series_id, hour, chunk_id)
    WHERE user_id = ${q.userId}::uuid
    ORDER BY series_id, hour, chunk_id`;
  return rows.map(toChunk);
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
 * Each array travels as one text literal per chunk (PostgreSQL's array syntax, parsed by the
 * casts below): sending every sample as an element of flat arrays and grouping them in SQL
 * cost about three times as long.
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
  const column = (literal: (chunk: SampleChunk) => string | null) => kept.map(literal);
  const ids = kept.map((c) => toExternalIdColumns(c.externalIds));
  const idLiteral = (items: Array<string | null> | null) => (items === null ? null : arrayLiteral(items));
  await db.$executeRaw`
    INSERT INTO quantity_sample_chunks AS c (user_id, series_id, hour, chunk_id, sample_count, start_offsets, durations_ms,
      sample_values, ingested_at, raw_object_ids, external_ids, external_uuids, external_uuids_lowercase, external_id_bloom,
      metadata, legacy_ids)
    SELECT ${userId}::uuid, k.series_id, k.hour, k.chunk_id, k.sample_count, k.start_offsets::int[], k.durations_ms::bigint[],
      k.sample_values::float8[], k.ingested_at::timestamptz[], k.raw_object_ids::uuid[], k.external_ids::text[],
      k.external_uuids::uuid[], k.external_uuids_lowercase, k.external_id_bloom::bytea,
      k.metadata::jsonb[], k.legacy_ids::bigint[]
    FROM unnest(${kept.map((c) => String(c.seriesId))}::bigint[], ${kept.map((c) => c.hour)}::timestamptz[],
      ${kept.map((c) => String(c.chunkId))}::bigint[], ${kept.map((c) => c.values.filter((v) => v !== null).length)}::int[],
      ${column((c) => arrayLiteral(c.startOffsets))}::text[], ${column((c) => arrayLiteral(c.durationsMs))}::text[],
      ${column((c) => arrayLiteral(c.values))}::text[], ${column((c) => timesLiteral(c.ingestedAt))}::text[],
      ${column((c) => arrayLiteral(c.rawObjectIds))}::text[], ${ids.map((i) => idLiteral(i.texts))}::text[],
      ${ids.map((i) => idLiteral(i.uuids))}::text[], ${ids.map((i) => i.lowercase)}::boolean[],
      ${column((c) => externalIdBloom(c.externalIds))}::text[],
      ${column((c) => nullWhenEmpty(c.metadata.map((m) => (m ? JSON.stringify(m) : null))))}::text[],
      ${column((c) => nullWhenEmpty(c.legacyIds.map((id) => (id === null ? null : String(id)))))}::text[])
      AS k(series_id, hour, chunk_id, sample_count, start_offsets, durations_ms, sample_values, ingested_at, raw_object_ids,
        external_ids, external_uuids, external_uuids_lowercase, external_id_bloom, metadata, legacy_ids)
    ON CONFLICT (user_id, series_id, hour, chunk_id) DO UPDATE SET
      sample_count = excluded.sample_count, start_offsets = excluded.start_offsets, durations_ms = excluded.durations_ms,
      sample_values = excluded.sample_values, ingested_at = excluded.ingested_at, raw_object_ids = excluded.raw_object_ids,
      external_ids = excluded.external_ids, external_uuids = excluded.external_uuids,
      external_uuids_lowercase = excluded.external_uuids_lowercase, external_id_bloom = excluded.external_id_bloom,
      metadata = excluded.metadata, legacy_ids = excluded.legacy_ids`;
}

/** PostgreSQL's text form of a one-dimensional array; strings are quoted, numbers are written as JavaScript prints them (exactly). */
function arrayLiteral(items: ReadonlyArray<number | string | null>): string {
  let text = "{";
  for (let i = 0; i < items.length; i++) {
    const item = items[i];
    if (i > 0) text += ",";
    text += item === null || item === undefined ? "NULL" : typeof item === "number" ? String(item) : `"${item.replace(/[\\"]/g, "\\$&")}"`;
  }
  return `${text}}`;
}

/** The literal of an array of times; a chunk's samples mostly share one (written at once). */
function timesLiteral(times: readonly Date[]): string {
  let last = { ms: Number.NaN, text: "" };
  return arrayLiteral(times.map((t) => (t.getTime() === last.ms ? last : (last = { ms: t.getTime(), text: t.toISOString() })).text));
}

/** The array's literal, or null when it holds no value (the column is then NULL). */
const nullWhenEmpty = (items: ReadonlyArray<string | null>): string | null => (items.some((item) => item !== null) ? arrayLiteral(items) : null);
