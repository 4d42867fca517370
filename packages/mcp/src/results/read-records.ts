import type { ToolRecords } from "../tool-result.ts";
import { readNewestFirst } from "./newest-first.ts";
import { compactRecords, type RecordShape } from "./record-shape.ts";
import { DAY_MS, dayOf, formatBound, parseBounds, type RecordWindow } from "./record-window.ts";
import { RESULT_TOKEN_BUDGET, recordsThatFit } from "./result-budget.ts";
import type { Json, ReadPage } from "./rest-page.ts";

export type RecordOrder = "oldest_first" | "newest_first";

/** One tool call reading a REST list. */
export interface RecordRead {
  shape: RecordShape;
  read: ReadPage;
  /** The procedure's arguments from the call (the user apart). */
  args: Json;
  order: RecordOrder;
  /** How the list's window applies; none: the tool has no default window and no order. */
  window?: RecordWindow | undefined;
  /** False when the arguments name what to read (a series, a session): no default window then. */
  defaultWindow?: boolean;
  /** What to use instead for long windows, told when the answer is truncated. */
  overview?: string | undefined;
}

const DEFAULT_LIMIT = 100;

const budgetHint = (count: number) =>
  `The answer stopped at its size budget (about ${RESULT_TOKEN_BUDGET} tokens) after ${count} records.`;

/** The hint of a truncated page: cut by its limit, or (a count given) by the budget. */
function pagingHint(cutByBudget: number | undefined, overview: string | undefined): string {
  const stop = cutByBudget === undefined ? "More records match." : budgetHint(cutByBudget);
  return [stop, "Call again with cursor = next_cursor and the same other arguments for the next ones.", overview]
    .filter((part) => part)
    .join(" ");
}

/** An answer: truncated, cursor and hint first, then the tool's fields, the streams and the records. */
function answerOf(shape: RecordShape, records: readonly Json[], fields: { truncated: boolean; nextCursor: string | null; hint?: string | undefined }, extra: Json): ToolRecords {
  const compact = compactRecords(shape, records);
  return {
    truncated: fields.truncated,
    next_cursor: fields.nextCursor,
    ...(fields.hint !== undefined && { hint: fields.hint }),
    ...extra,
    ...(compact.streams && { streams: compact.streams }),
    records: compact.records,
  };
}

/** Room for a cursor while measuring (REST cursors and newest-first ones are far shorter). */
const CURSOR_ROOM = "x".repeat(256);

/** How many of the records fit the budget in an answer with the longest hint it could get. */
function recordsWithinBudget(shape: RecordShape, records: readonly Json[], longestHint: string, extra: Json): number {
  const { records: rows, ...rest } = answerOf(shape, records, { truncated: true, nextCursor: CURSOR_ROOM, hint: longestHint }, extra);
  return recordsThatFit(rest, rows);
}

/** A page of a list as an answer; `cut`: it ends at the budget rather than at its limit. */
function pageAnswer(request: RecordRead, records: readonly Json[], nextCursor: string | null, cut: boolean, extra: Json): ToolRecords {
  const hint = nextCursor === null ? undefined : pagingHint(cut ? records.length : undefined, request.overview);
  return answerOf(request.shape, records, { truncated: nextCursor !== null, nextCursor, hint }, extra);
}

const pageRecordsWithinBudget = (request: RecordRead, records: readonly Json[], extra: Json) =>
  recordsWithinBudget(request.shape, records, pagingHint(records.length, request.overview), extra);

/** The arguments with the tool's default window: without start and cursor, the span before end (or now). */
function withDefaultWindow(request: RecordRead, now: number): Json {
  const { args, window } = request;
  if (!window || request.defaultWindow === false || args.start !== undefined || args.cursor !== undefined) return args;
  let end: number | undefined;
  try {
    end = parseBounds(window, args).end;
  } catch {
    return args; // The route refuses the bound with its own message.
  }
  const before = end ?? (window.unit === "date" ? dayOf(now) + DAY_MS : now);
  return { ...args, start: formatBound(window, before - window.defaultSpanMs) };
}

const windowOf = (request: RecordRead, args: Json): Json =>
  request.window ? { start: typeof args.start === "string" ? args.start : null, end: typeof args.end === "string" ? args.end : null } : {};

/**
 * One page of records for an assistant: compacted (record-shape.ts), at most `limit` records
 * and the size budget, oldest first (REST's order and cursors) or newest first.
 */
export async function readRecords(request: RecordRead, now = Date.now()): Promise<ToolRecords> {
  const { read } = request;
  const limit = typeof request.args.limit === "number" ? request.args.limit : DEFAULT_LIMIT;

  if (request.order === "newest_first" && request.window) {
    const page = await readNewestFirst(read, request.args, request.window, limit, now);
    const extra = windowOf(request, request.args);
    const fit = pageRecordsWithinBudget(request, page.records, extra);
    const kept = page.records.slice(0, fit);
    return pageAnswer(request, kept, page.cursorAfter(kept.length), fit < page.records.length, extra);
  }

  const args = withDefaultWindow(request, now);
  const extra = windowOf(request, args);
  const page = await read(args);
  const fit = pageRecordsWithinBudget(request, page.data, extra);
  if (fit >= page.data.length) return pageAnswer(request, page.data, page.next_cursor, false, extra);
  // Cut at the budget: read again with the smaller limit, so next_cursor is REST's after the last record kept.
  const smaller = await read({ ...args, limit: fit });
  return pageAnswer(request, smaller.data, smaller.next_cursor, true, extra);
}

/**
 * All records of an unpaged tool, compacted and cut at the size budget (`truncated`, with a
 * hint, when cut). `truncated` in `extra` (a cap of the route itself) is kept.
 */
export function capRecords(shape: RecordShape, records: readonly Json[], extra: Json = {}, narrowing = "Narrow start and end."): ToolRecords {
  const { truncated: capped, ...rest } = extra;
  const fit = recordsWithinBudget(shape, records, `${budgetHint(records.length)} ${narrowing}`, rest);
  if (fit >= records.length) return answerOf(shape, records, { truncated: capped === true, nextCursor: null }, rest);
  return answerOf(shape, records.slice(0, fit), { truncated: true, nextCursor: null, hint: `${budgetHint(fit)} ${narrowing}` }, rest);
}
