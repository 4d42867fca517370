import { decodeCursor, encodeCursor } from "@svc/core";
import { z } from "zod";
import { DAY_MS, dayOf, formatBound, keyOf, keyStep, parseBounds, type RecordWindow } from "./record-window.ts";
import { without, type Json, type ReadPage } from "./rest-page.ts";

/*
 * Newest-first reads over REST lists that are oldest first: the window is read backwards in
 * stretches, each one oldest first and then reversed. A stretch with more records than one
 * REST page is read again eight times shorter; stretches with few records make the next one
 * eight times longer. Stretches are adjacent half-open windows, so no record is read twice.
 */

/** The most records one stretch reads in one REST call (the REST page maximum). */
const STRETCH_LIMIT = 1000;
const GROWTH = 8;

/**
 * Where the next page starts: before the records whose key is `before`, skipping the first
 * `skip` of those (newest first) that earlier pages held.
 */
const NewestFirstCursor = z
  .object({ order: z.literal("newest_first"), before: z.union([z.iso.datetime(), z.iso.date()]), skip: z.number().int().min(0).max(1_000_000) })
  .strict();

export interface NewestFirstPage {
  /** Up to `limit` records, newest first. */
  records: Json[];
  /** The cursor of the page holding the first `count` of `records`; null when nothing older is left. */
  cursorAfter(count: number): string | null;
}

/** Where a newest-first read with no end starts: a day ahead (dates of zones east of UTC, clocks a little fast). */
function latestBound(window: RecordWindow, now: number): number {
  return window.unit === "date" ? dayOf(now) + 2 * DAY_MS : now + DAY_MS;
}

/** The shorter stretch to read when one held more than a REST page: a whole number of key steps. */
function shorter(width: number, step: number): number {
  return Math.max(step, Math.floor(width / GROWTH / step) * step);
}

export async function readNewestFirst(read: ReadPage, args: Json, window: RecordWindow, limit: number, now = Date.now()): Promise<NewestFirstPage> {
  const position = typeof args.cursor === "string" ? decodeCursor(args.cursor, NewestFirstCursor) : undefined;
  const bounds = parseBounds(window, args);
  const step = keyStep(window);
  const boundary = position === undefined ? undefined : Date.parse(position.before);
  const lower = bounds.start ?? 0;
  let to = Math.min(bounds.end ?? latestBound(window, now), boundary === undefined ? Infinity : boundary + step);
  const filters = without(args, ["cursor", "start", "end", "limit"]);
  const stretchOf = (from: number, until: number) => ({ ...filters, start: formatBound(window, from), end: formatBound(window, until), limit: STRETCH_LIMIT });

  const rows: Json[] = [];
  let toSkip = position?.skip ?? 0;
  let width = window.firstStepMs;
  while (to > lower && rows.length <= limit) {
    const from = Math.max(lower, to - width);
    const first = await read(stretchOf(from, to));
    if (first.next_cursor !== null && to - from > step) {
      width = shorter(Math.min(width, to - from), step);
      continue;
    }
    // One key step holding more than a page: read all of it.
    const stretch = [...first.data];
    for (let cursor = first.next_cursor; cursor !== null; ) {
      const next = await read({ ...stretchOf(from, to), cursor });
      stretch.push(...next.data);
      cursor = next.next_cursor;
    }
    for (let i = stretch.length - 1; i >= 0; i--) {
      const record = stretch[i]!;
      if (toSkip > 0 && keyOf(window, record) === boundary) {
        toSkip--;
        continue;
      }
      rows.push(record);
    }
    to = from;
    if (stretch.length < STRETCH_LIMIT / GROWTH) width *= GROWTH;
  }

  const records = rows.slice(0, limit);
  return {
    records,
    cursorAfter(count) {
      if (count >= rows.length) return null;
      const last = keyOf(window, records[count - 1]!);
      let sameKey = 0;
      for (let i = count - 1; i >= 0 && keyOf(window, records[i]!) === last; i--) sameKey++;
      const skippedBefore = last === boundary ? (position?.skip ?? 0) : 0;
      return encodeCursor({ order: "newest_first", before: formatBound(window, last), skip: sameKey + skippedBefore });
    },
  };
}
