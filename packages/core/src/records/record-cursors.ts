import { z } from "zod";
import { decodeCursor } from "../platform/index.ts";

/**
 * Sort keys of record lists ordered by a time and then the id, as encoded in their opaque
 * cursors (see cursor.ts): `t` is the last row's time, `id` its id.
 */
export const TimeBigintCursor = z.object({ t: z.iso.datetime(), id: z.string().regex(/^\d{1,19}$/) }).strict();
export type TimeBigintCursor = z.infer<typeof TimeBigintCursor>;

export const TimeUuidCursor = z.object({ t: z.iso.datetime(), id: z.uuid() }).strict();
export type TimeUuidCursor = z.infer<typeof TimeUuidCursor>;

/**
 * The sort key of lists with one row per time (a workout's route). Cursors of older releases
 * also hold the row's id, which the time alone makes redundant: they are still accepted.
 */
export const TimeCursor = z.object({ t: z.iso.datetime(), id: z.string().regex(/^\d{1,19}$/).optional() }).strict();
export type TimeCursor = z.infer<typeof TimeCursor>;

/** The position after which the next page starts, as repositories take it. */
export interface AfterTimeBigint {
  t: Date;
  id: bigint;
}

export interface AfterTimeUuid {
  t: Date;
  id: string;
}

/** One page of a user's records with a time in [start, end), after a position, as repositories take it. */
export interface TimePageQuery<After> {
  userId: string;
  start?: Date | undefined;
  end?: Date | undefined;
  after?: After | undefined;
  limit: number;
}

/** The position a list's `cursor` parameter names (none: the first page); a cursor that does not decode is a 400. */
export function decodeAfterBigint(cursor: string | undefined): AfterTimeBigint | undefined {
  if (cursor === undefined) return undefined;
  const position = decodeCursor(cursor, TimeBigintCursor);
  return { t: new Date(position.t), id: BigInt(position.id) };
}

/** As decodeAfterBigint, for lists with one row per time: the time after which the next page starts. */
export function decodeAfterTime(cursor: string | undefined): Date | undefined {
  if (cursor === undefined) return undefined;
  return new Date(decodeCursor(cursor, TimeCursor).t);
}

/** As decodeAfterBigint, for lists whose ids are uuids. */
export function decodeAfterUuid(cursor: string | undefined): AfterTimeUuid | undefined {
  if (cursor === undefined) return undefined;
  const position = decodeCursor(cursor, TimeUuidCursor);
  return { t: new Date(position.t), id: position.id };
}
