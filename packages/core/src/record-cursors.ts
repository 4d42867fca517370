import { z } from "zod";

/**
 * Sort keys of record lists ordered by a time and then the id, as encoded in their opaque
 * cursors (see cursor.ts): `t` is the last row's time, `id` its id.
 */
export const TimeBigintCursor = z.object({ t: z.iso.datetime(), id: z.string().regex(/^\d{1,19}$/) }).strict();
export type TimeBigintCursor = z.infer<typeof TimeBigintCursor>;

export const TimeUuidCursor = z.object({ t: z.iso.datetime(), id: z.uuid() }).strict();
export type TimeUuidCursor = z.infer<typeof TimeUuidCursor>;

/** The position after which the next page starts, as repositories take it. */
export interface AfterTimeBigint {
  t: Date;
  id: bigint;
}

export interface AfterTimeUuid {
  t: Date;
  id: string;
}

export const afterBigint = (cursor: TimeBigintCursor | undefined): AfterTimeBigint | undefined =>
  cursor && { t: new Date(cursor.t), id: BigInt(cursor.id) };

export const afterUuid = (cursor: TimeUuidCursor | undefined): AfterTimeUuid | undefined =>
  cursor && { t: new Date(cursor.t), id: cursor.id };
