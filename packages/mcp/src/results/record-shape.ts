import type { z } from "zod";
import type { Json } from "./rest-page.ts";

/**
 * How the records of one kind reach an assistant: what their streams share is written once,
 * each record keeps only the fields that vary, and nulls are left out. One shape per record
 * kind, used by every tool that answers that kind (output-schema.ts derives its schema).
 */
export interface RecordShape {
  /** The REST record (an item of the procedure's `data`). */
  schema: z.ZodObject;
  /**
   * Fields every record of one stream shares (provider, source, device, unit, ...): written once
   * per stream in `streams`, with the stream's latest `ingested_at` and the streams it outranked.
   */
  stream?: readonly string[];
  /** Keys of `metadata` that belong to the stream: its zone, the unit the values were sent in. */
  streamMetadata?: readonly string[];
  /** Fields an assistant has no use for (ids no tool takes, the provider's own ids); REST keeps them. */
  dropped?: readonly string[];
  /** Keys of `metadata` left out (`original_value`: the value converted back, given its stream's original_unit). */
  droppedMetadata?: readonly string[];
  /** Fields left out when they hold this usual value (empty metadata, a `false` flag); nulls are always left out. */
  usual?: Readonly<Record<string, unknown>>;
  /** An end left out when it equals the start: a record of one instant. */
  instant?: { start: string; end: string };
}

/** A stream of the answer: its shared fields, and what its records in this answer add up to. */
interface StreamEntry {
  fields: Json;
  lastIngestedAt: string | undefined;
  outranked: Map<string, { provider: string; source: string; records: number }>;
}

/** The records of one kind, compacted: `streams` for kinds with provenance, then the rows. */
export interface CompactRecords {
  records: Json[];
  streams?: Json[];
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

function metadataOf(record: Json): Json {
  const metadata = record.metadata;
  return metadata !== null && typeof metadata === "object" ? (metadata as Json) : {};
}

/** The fields one record shares with its stream, nulls left out, in the shape's order. */
function streamFieldsOf(shape: RecordShape, record: Json): Json {
  const fields: Json = {};
  for (const key of shape.stream ?? []) if (record[key] !== null && record[key] !== undefined) fields[key] = record[key];
  const metadata = metadataOf(record);
  for (const key of shape.streamMetadata ?? []) if (metadata[key] !== null && metadata[key] !== undefined) fields[key] = metadata[key];
  return fields;
}

/** The fields of one record that are not its stream's, without nulls, usual values or dropped fields. */
function rowOf(shape: RecordShape, record: Json, leftOut: ReadonlySet<string>): Json {
  const row: Json = {};
  for (const [key, value] of Object.entries(record)) {
    if (leftOut.has(key) || value === null || value === undefined) continue;
    if (shape.instant?.end === key && value === record[shape.instant.start]) continue;
    const kept = key === "metadata" ? ownMetadata(shape, metadataOf(record)) : value;
    if (shape.usual && key in shape.usual && same(kept, shape.usual[key])) continue;
    row[key] = kept;
  }
  return row;
}

function ownMetadata(shape: RecordShape, metadata: Json): Json {
  const hoisted = new Set([...(shape.streamMetadata ?? []), ...(shape.droppedMetadata ?? [])]);
  if (hoisted.size === 0) return metadata;
  return Object.fromEntries(Object.entries(metadata).filter(([key]) => !hoisted.has(key)));
}

/** Fields a row never holds: its stream's, the dropped ones, and what streams sum up. */
function leftOutFields(shape: RecordShape): Set<string> {
  return new Set([...(shape.stream ?? []), ...(shape.dropped ?? []), ...(shape.stream ? ["ingested_at", "outranked"] : [])]);
}

function addToStream(stream: StreamEntry, record: Json): void {
  const ingestedAt = record.ingested_at;
  if (typeof ingestedAt === "string" && (stream.lastIngestedAt === undefined || ingestedAt > stream.lastIngestedAt)) stream.lastIngestedAt = ingestedAt;
  const outranked = Array.isArray(record.outranked) ? (record.outranked as Array<{ provider: string; source: string }>) : [];
  for (const { provider, source } of outranked) {
    const key = `${provider}\u0000${source}`;
    const entry = stream.outranked.get(key) ?? { provider, source, records: 0 };
    entry.records += 1;
    stream.outranked.set(key, entry);
  }
}

function toStream(stream: StreamEntry): Json {
  return {
    ...stream.fields,
    ...(stream.lastIngestedAt !== undefined && { last_ingested_at: stream.lastIngestedAt }),
    ...(stream.outranked.size > 0 && { outranked: [...stream.outranked.values()] }),
  };
}

/**
 * The records as an assistant reads them. With streams, a record names its stream by index
 * (`stream`) only when the answer has more than one.
 */
export function compactRecords(shape: RecordShape, records: readonly Json[]): CompactRecords {
  const leftOut = leftOutFields(shape);
  if (!shape.stream) return { records: records.map((record) => rowOf(shape, record, leftOut)) };

  const streams: StreamEntry[] = [];
  const byFields = new Map<string, number>();
  const streamOf = records.map((record) => {
    const fields = streamFieldsOf(shape, record);
    const key = JSON.stringify(fields);
    let index = byFields.get(key);
    if (index === undefined) {
      index = streams.length;
      byFields.set(key, index);
      streams.push({ fields, lastIngestedAt: undefined, outranked: new Map() });
    }
    addToStream(streams[index]!, record);
    return index;
  });
  const several = streams.length > 1;
  return {
    streams: streams.map(toStream),
    records: records.map((record, i) => ({ ...(several && { stream: streamOf[i] }), ...rowOf(shape, record, leftOut) })),
  };
}
