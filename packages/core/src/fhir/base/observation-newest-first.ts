import type { DbClient } from "../../platform/index.ts";
import { findLatestRecordTimes } from "../../records/index.ts";
import { isBloodPressureType } from "../observation-kinds.ts";
import type { ObservationEntry } from "../observation-entry.ts";
import { comparePositions, type ObservationPosition } from "../observation-position.ts";
import { takePage } from "../record-sources.ts";
import { type ObservationEntryPage, type ObservationPageQuery, readObservationEntries } from "../search-observations.ts";

/** The first window read back from where a newest-first page starts. */
const FIRST_WINDOW_MS = 60_000;
/**
 * How much longer the next window is after one that found nothing: a window that then meets dense
 * records holds at most about this many times what is needed (windowTail halves it).
 */
const EMPTY_GROWTH = 4;
/** Bounds of how much longer the next window is after one that found some (from the density it found). */
const MIN_GROWTH = 2;
const MAX_GROWTH = 16;
/** Entries a forward read of the rest of a window takes at once. */
const READ_LIMIT = 1000;
/** The earliest time the search knows (a cursor's lower bound). */
const EARLIEST = Date.parse("0001-01-01T00:00:00.000Z");

/** One forward page of [from, to) from `after`, with the entries before `before` (none: all) kept. */
async function forwardPage(
  db: DbClient,
  query: ObservationPageQuery,
  window: { from: number; to: number },
  before: ObservationPosition | undefined,
  after: ObservationPosition | undefined,
  limit: number,
): Promise<{ kept: ObservationEntry[]; next: ObservationPosition | undefined }> {
  const time = { start: new Date(window.from), end: new Date(window.to) };
  const page: ObservationEntryPage = await readObservationEntries(db, { ...query, window: time, after, limit });
  return { kept: page.entries.filter((entry) => !before || comparePositions(entry.position, before) < 0), next: page.next };
}

/**
 * The last `need` entries of [from, to) before `before`, in time order. A first forward read of
 * `need` + 1 tells whether the window holds more; when it does and, at the density read, the rest
 * fits in one read of READ_LIMIT, the rest is read; otherwise the later half gives the window's
 * last entries and the earlier half only what is still missing, each read the same way. So a
 * window far wider than its last `need` entries (dense records, or records that end long before
 * the window does) costs a few short reads, never a read of all it holds. A window of one
 * millisecond is read whole.
 */
async function windowTail(
  db: DbClient,
  query: ObservationPageQuery,
  window: { from: number; to: number },
  before: ObservationPosition | undefined,
  need: number,
): Promise<ObservationEntry[]> {
  const { from, to } = window;
  const first = await forwardPage(db, query, window, before, undefined, need + 1);
  let entries = first.kept;
  let next = first.next;
  const whole = to - from <= 1;
  if (next && !whole) {
    const readUpTo = next.t.getTime();
    const estimate = (entries.length * (to - from)) / Math.max(1, readUpTo - from + 1);
    if (estimate <= need + READ_LIMIT) {
      const rest = await forwardPage(db, query, window, before, next, READ_LIMIT);
      entries = [...entries, ...rest.kept];
      next = rest.next;
    }
  }
  // Pages may be short and still go on (records a page leaves out, the ECG cap): a whole window is read to its end.
  while (next && whole) {
    const page = await forwardPage(db, query, window, before, next, READ_LIMIT);
    entries = [...entries, ...page.kept];
    next = page.next;
  }
  if (!next) return entries.slice(Math.max(0, entries.length - need));
  const middle = from + Math.floor((to - from) / 2);
  const later = await windowTail(db, query, { from: middle, to }, before, need);
  if (later.length >= need) return later;
  return [...(await windowTail(db, query, { from, to: middle }, before, need - later.length)), ...later];
}

/**
 * A time after every entry the query lists sorts at (its latest records' times, from the
 * indexes; its sample streams' ends); none when it lists nothing.
 */
async function pastLatestEntry(db: DbClient, query: ObservationPageQuery): Promise<number | undefined> {
  const { filter } = query;
  const kinds = [...filter.records];
  const latest = await findLatestRecordTimes(db, query.userId, kinds);
  // Blood pressure readings are listed as panels only.
  const listed = (type: string) => (isBloodPressureType(type) ? filter.panel !== null : filter.sampleType(type));
  const times = [...kinds.map((kind) => latest.records[kind]), ...[...latest.sampleTypes].filter(([type]) => listed(type)).map(([, time]) => time)];
  const known = times.filter((time) => time !== undefined).map((time) => time.getTime());
  return known.length > 0 ? Math.max(...known) + 1 : undefined;
}

/**
 * One page of the user's Observations newest first (`_sort=-date`): time, kind and id all
 * descending, before `query.after` (the position a next link carries), within the window. The
 * walk reads forwards only, so windows are read back in time from where the page starts (just
 * after the user's latest entry, however long ago that is): a minute first, then windows sized
 * from the density found (4 times longer after an empty one), until the page and one more entry
 * are found or the window's start is reached. Pages end after their ECG_RECORDINGS_PER_PAGE-th
 * recording, as forward pages do.
 */
export async function readNewestFirst(db: DbClient, query: ObservationPageQuery): Promise<ObservationEntryPage> {
  const { limit, window, after: before } = query;
  const want = limit + 1;
  const floor = Math.max(window.start?.getTime() ?? EARLIEST, EARLIEST);
  const latest = await pastLatestEntry(db, query);
  if (latest === undefined) return { entries: [], next: undefined };
  const ends = [latest, window.end?.getTime(), before && before.t.getTime() + 1].filter((t): t is number => t !== undefined);
  const found: ObservationEntry[] = [];
  let upper = Math.min(...ends);
  for (let width = FIRST_WINDOW_MS; found.length < want && upper > floor; ) {
    const lower = Math.max(floor, upper - width);
    const need = want - found.length;
    const tail = await windowTail(db, query, { from: lower, to: upper }, before, need);
    found.push(...tail.reverse());
    const growth = tail.length === 0 ? EMPTY_GROWTH : Math.min(MAX_GROWTH, Math.max(MIN_GROWTH, Math.ceil((1.5 * (need - tail.length)) / tail.length)));
    width = Math.min(width * growth, Number.MAX_SAFE_INTEGER);
    upper = lower;
  }
  const { page, atRecordingCap } = takePage(found, limit);
  return { entries: page, next: atRecordingCap || found.length > page.length ? page.at(-1)?.position : undefined };
}
