import { z } from "zod";
import { AppError } from "./errors/app-error.ts";

/**
 * Opaque list cursors: base64url JSON of the last row's sort key. Every list route
 * encodes and decodes through here; a cursor that does not decode is a 400.
 */
export function encodeCursor(position: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(position)).toString("base64url");
}

export function decodeCursor<T>(cursor: string, schema: z.ZodType<T>): T {
  try {
    const json: unknown = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
    return schema.parse(json);
  } catch {
    throw new AppError("bad_request", "cursor is not valid: pass back next_cursor exactly as it was returned");
  }
}

/** The sort key of lists ordered by creation time, oldest first. */
export const CreatedAtCursor = z.object({ t: z.iso.datetime(), id: z.uuid() }).strict();
export type CreatedAtCursor = z.infer<typeof CreatedAtCursor>;

export interface Page<T> {
  data: T[];
  next_cursor: string | null;
}

/** Cuts the one extra row a query fetched to know whether another page exists. */
export function toPage<Row, Item>(
  rows: Row[],
  limit: number,
  toItem: (row: Row) => Item,
  cursorOf: (row: Row) => Record<string, unknown>,
): Page<Item> {
  const hasMore = rows.length > limit;
  const pageRows = hasMore ? rows.slice(0, limit) : rows;
  const last = pageRows.at(-1);
  return {
    data: pageRows.map(toItem),
    next_cursor: hasMore && last ? encodeCursor(cursorOf(last)) : null,
  };
}
