import { z } from "zod";
import { RESULT_TOKEN_BUDGET } from "./result-budget.ts";
import type { RecordShape } from "./record-shape.ts";

/*
 * The outputSchema of the tools, derived from the REST record schemas and their record shape,
 * so the field descriptions (units and scales included) are the REST ones.
 */

const sentence = (...parts: Array<string | undefined>) => parts.filter((part) => part).join(" ");

/** A field's description, also when it sits on the schema an optional, nullable or default wraps. */
export function descriptionOf(field: z.ZodType): string | undefined {
  if (field.description !== undefined) return field.description;
  if (field instanceof z.ZodOptional || field instanceof z.ZodNullable || field instanceof z.ZodDefault) return descriptionOf(field.unwrap() as z.ZodType);
  return undefined;
}

/** A field as an assistant's record holds it: a nullable one becomes optional (left out when null). */
function optionalField(field: z.ZodType, note: string): z.ZodType {
  if (field instanceof z.ZodNullable) {
    const inner = field.unwrap() as z.ZodType;
    return inner.optional().describe(sentence(descriptionOf(field), note));
  }
  return field.optional().describe(sentence(descriptionOf(field), note));
}

const usualNote = (value: unknown) => (typeof value === "object" ? "Left out when empty." : `Left out when ${String(value)}.`);

/** Stream fields taken from `metadata`. */
const STREAM_METADATA: Record<string, z.ZodType> = {
  timezone: z.string().optional().describe("The IANA zone or ±hh:mm offset the records were made in, when known."),
  original_unit: z
    .string()
    .optional()
    .describe("The unit the provider sent the values in, when it was not the storage unit (the values are converted to `unit`)."),
};

const ZOutrankedStreams = z
  .array(
    z.object({
      provider: z.string(),
      source: z.string().describe("The vendor, or the provider when the vendor is unknown."),
      records: z.number().int().min(1).describe("How many of this stream's records in this answer were preferred to one of that stream."),
    }),
  )
  .optional()
  .describe("Merged view: the worse ranked streams that had a matching record, left out in favour of this stream's. Left out when none.");

/** One entry of `streams`: what the records of one stream share. */
export function streamSchema(shape: RecordShape): z.ZodObject {
  const fields: Record<string, z.ZodType> = {};
  const record = shape.schema.shape as Record<string, z.ZodType>;
  for (const key of shape.stream ?? []) {
    const field = record[key];
    if (!field) throw new Error(`No field ${key} in the record to make a stream of`);
    fields[key] = field instanceof z.ZodNullable ? optionalField(field, "Left out when not known.") : field;
  }
  for (const key of shape.streamMetadata ?? []) fields[key] = STREAM_METADATA[key]!;
  if ("ingested_at" in record) fields.last_ingested_at = z.iso.datetime().optional().describe("When svc last stored one of this stream's records in this answer.");
  if ("outranked" in record) fields.outranked = ZOutrankedStreams;
  return z.object(fields).describe("Provenance shared by records: provider, source, device, unit and the like, given once.");
}

const ZStreamIndex = z.number().int().min(0).optional().describe("The record's stream: an index into `streams`. Left out when the answer has one stream.");

/** One record as an assistant receives it (record-shape.ts compactRecords). */
export function rowSchema(shape: RecordShape): z.ZodObject {
  const leftOut = new Set([...(shape.stream ?? []), ...(shape.dropped ?? []), ...(shape.stream ? ["ingested_at", "outranked"] : [])]);
  const fields: Record<string, z.ZodType> = shape.stream ? { stream: ZStreamIndex } : {};
  for (const [key, field] of Object.entries(shape.schema.shape as Record<string, z.ZodType>)) {
    if (leftOut.has(key)) continue;
    if (key === "metadata" && (shape.streamMetadata?.length ?? 0) > 0) {
      const dropped = shape.droppedMetadata?.length ? ` ${shape.droppedMetadata.join(" and ")} left out.` : "";
      fields[key] = optionalField(field, `Left out when empty; ${shape.streamMetadata!.join(" and ")} given once per stream.${dropped}`);
    } else if (shape.instant?.end === key) {
      fields[key] = optionalField(field, `Left out when equal to ${shape.instant.start} (a record of one instant).`);
    } else if (shape.usual && key in shape.usual) {
      fields[key] = optionalField(field, usualNote(shape.usual[key]));
    } else if (field instanceof z.ZodNullable) {
      fields[key] = optionalField(field, "Left out when null.");
    } else {
      fields[key] = field;
    }
  }
  return z.object(fields);
}

/** What every tool answers beside its records. */
export const ANSWER_FIELDS = {
  next_cursor: z.string().nullable().describe("Pass back as `cursor` (with the same other arguments) for more; null when nothing more can be paged."),
  truncated: z.boolean().describe("True when more records match than this answer holds."),
  hint: z
    .string()
    .optional()
    .describe(`How to get more, when truncated: an answer holds up to the limit and about ${RESULT_TOKEN_BUDGET} tokens of JSON.`),
};

/** The window a read covered, for tools that default it. */
export const WINDOW_FIELDS = {
  start: z.string().nullable().describe("Start of the window read (inclusive); null: from the first record."),
  end: z.string().nullable().describe("End of the window read (exclusive); null: up to the latest record."),
};

/** The outputSchema of a tool answering records of these shapes (several: one or the other, by arguments). */
export function answerSchema(shapes: readonly RecordShape[], extra: z.ZodRawShape = {}): z.ZodObject {
  const rows = shapes.map(rowSchema);
  const row = rows.length === 1 ? rows[0]! : z.union(rows as [z.ZodObject, z.ZodObject, ...z.ZodObject[]]);
  const withStreams = shapes.filter((shape) => shape.stream);
  return z.object({
    records: z.array(row).describe("The records, nulls left out."),
    ...(withStreams.length > 0 && {
      streams: z
        .array(withStreams.length === 1 ? streamSchema(withStreams[0]!) : z.union(withStreams.map(streamSchema) as [z.ZodObject, z.ZodObject]))
        .optional()
        .describe("The provenance of the records, once per stream (see each record's `stream`)."),
    }),
    ...ANSWER_FIELDS,
    ...extra,
  });
}
