// Pages of the merged view of quantity samples (records/samples/quantity-sample-repository.ts)
// against the merge worked out by brute force from the view `all`, on data made to be awkward:
// three ranked streams and one left unranked, samples on both sides of hour boundaries, equal
// start times, starts exactly one match window apart, intervals spanning hours, touching ones,
// and samples weeks apart (later windows of a page's walk). Every page size walks with cursors.
// A read that leaves the legacy table out (no sample of the type left there) answers as one
// that reads it.
import { createTenant, createUser, listSamples, writeQuantitySamples, type QuantitySampleRecord } from "@svc/core";
import { createDatabase, type Database } from "@svc/db";
import { createTestDatabase } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MATCH_WINDOW_SECONDS, type MatchKind } from "../src/records/merge/match-kinds.ts";
import type { SqlStream } from "../src/records/merge/merge-sql-repository.ts";
import { hoursAround, listMergedQuantitySamples } from "../src/records/samples/quantity-sample-repository.ts";
import { matchKindOfType, rankedSampleStreams } from "../src/records/samples/samples.ts";

let db: Database;
let tenantId: string;

beforeAll(async () => {
  db = createDatabase(await createTestDatabase(), { max: 4 });
  tenantId = (await createTenant(db, "merged pages")).tenant_id;
});
afterAll(() => db?.$disconnect());

const H = 3_600_000;
const MIN = 60_000;
const T0 = Date.parse("2025-03-03T00:00:00Z");

interface Stream {
  provider: string;
  source: string;
  on_body: boolean;
}
const WATCH: Stream = { provider: "garmin", source: "garmin", on_body: true };
const PHONE: Stream = { provider: "apple_health", source: "apple", on_body: false };
const RING: Stream = { provider: "oura", source: "oura", on_body: true };
const SCALE: Stream = { provider: "withings", source: "withings", on_body: false };
const STREAMS = [WATCH, PHONE, RING, SCALE];

/** A small deterministic generator (the data must be the same on every run). */
function generator(seed: number) {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  return { next, int: (n: number) => Math.floor(next() * n) };
}

/** Awkward samples of one type: starts in ms from T0 and durations, per stream. */
function awkwardSamples(kind: MatchKind, seed: number): Array<{ stream: Stream; start: number; duration: number; value: number }> {
  const random = generator(seed);
  const windowMs = (MATCH_WINDOW_SECONDS[kind] ?? 0) * 1000;
  const longest = windowMs > 0 ? 0 : 90 * MIN;
  const samples: Array<{ stream: Stream; start: number; duration: number; value: number }> = [];
  const add = (stream: Stream, start: number, duration = 0) => samples.push({ stream, start, duration, value: 1 + random.int(200) });
  // Around hour boundaries, equal starts across streams, one window apart and a millisecond more.
  for (let hour = 1; hour <= 6; hour++) {
    add(WATCH, hour * H - 2000, longest && 20 * MIN);
    add(PHONE, hour * H + 2000, longest && 5 * MIN);
    add(RING, hour * H, longest && 30 * MIN);
    add(SCALE, hour * H - 1, longest && 2 * H);
    add(PHONE, hour * H + 10 * MIN);
    add(WATCH, hour * H + 10 * MIN);
    add(RING, hour * H + 20 * MIN + windowMs);
    add(WATCH, hour * H + 20 * MIN);
    add(SCALE, hour * H + 30 * MIN + windowMs + 1);
    add(PHONE, hour * H + 30 * MIN);
  }
  // Intervals that touch (end = start: no overlap) and ones of no length.
  add(WATCH, 8 * H, longest && 10 * MIN);
  add(PHONE, 8 * H + (longest && 10 * MIN), longest && 10 * MIN);
  add(RING, 8 * H + 5 * MIN, 0);
  // Many more anywhere in three days, and a few weeks later.
  for (let i = 0; i < 160; i++) {
    const stream = STREAMS[random.int(STREAMS.length)]!;
    add(stream, 10 * H + random.int(62 * H), longest && random.int(longest));
  }
  for (const days of [9, 10, 40]) for (const stream of STREAMS) add(stream, days * 24 * H + random.int(H), longest && random.int(longest));
  return samples;
}

interface Answered {
  id: number;
  provider: string;
  source: string | null;
  start_date: string;
  end_date: string;
  outranked?: Array<{ provider: string; source: string }>;
}

/** Every sample of the type in a view, read page by page (`limit` a page) with the cursors. */
async function readAll(userId: string, type: string, view: "all" | "merged", limit: number): Promise<Answered[]> {
  const rows: Answered[] = [];
  let cursor: string | undefined;
  do {
    const page = await listSamples(db, userId, { type, view, limit, cursor });
    rows.push(...(page.data as Answered[]));
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return rows;
}

const label = (s: { provider: string; source: string | null }) => `${s.provider}/${s.source}`;

/**
 * The merged view worked out one sample at a time from the view `all`: a sample is left out when
 * a better ranked stream has a matching one; a kept one lists the worse ranked streams that have one.
 */
function bruteForceMerge(all: Answered[], streams: readonly SqlStream[], kind: MatchKind) {
  const rankOf = (s: Answered) => streams.find((x) => x.provider === s.provider && x.sourceKey === s.source)?.rank ?? Number.POSITIVE_INFINITY;
  const windowMs = MATCH_WINDOW_SECONDS[kind];
  const span = (s: Answered) => {
    const start = Date.parse(s.start_date);
    return { start, end: Math.max(Date.parse(s.end_date), start + 1) };
  };
  const match = (a: Answered, b: Answered) => {
    const [x, y] = [span(a), span(b)];
    return windowMs !== undefined ? Math.abs(x.start - y.start) <= windowMs * 1000 : x.start < y.end && y.start < x.end;
  };
  const ranked = (s: Answered) => rankOf(s) !== Number.POSITIVE_INFINITY;
  return all
    .filter((s) => !all.some((o) => ranked(o) && rankOf(o) < rankOf(s) && match(s, o)))
    .map((s) => ({
      id: s.id,
      outranked: [...new Set(all.filter((o) => ranked(o) && rankOf(o) > rankOf(s) && match(s, o)).map(label))].sort(),
    }));
}

const summary = (rows: Answered[]) => rows.map((s) => ({ id: s.id, outranked: (s.outranked ?? []).map(label).sort() }));

describe.each([
  ["heart_rate", 11],
  ["step_count", 12],
  ["body_mass", 13],
  ["resting_heart_rate", 14],
  ["x_custom_metric", 15],
])("merged pages of %s", (type, seed) => {
  const kind = matchKindOfType(type).kind;
  let userId: string;
  let all: Answered[];

  beforeAll(async () => {
    userId = (await createUser(db, tenantId, `${type}-${seed}`)).id;
    const samples = awkwardSamples(kind, seed);
    for (const stream of STREAMS) {
      const records: QuantitySampleRecord[] = samples
        .filter((s) => s.stream === stream)
        .map((s, i) => ({
          type,
          value: s.value,
          unit: type === "x_custom_metric" ? "count" : undefined,
          start_date: new Date(T0 + s.start),
          end_date: new Date(T0 + s.start + s.duration),
          source: stream.source,
          on_body: stream.on_body,
          device: stream.provider,
          external_id: `${stream.provider}-${i}`,
        }));
      const written = await db.$transaction((tx) => writeQuantitySamples(tx, { userId, provider: stream.provider }, records));
      expect(written.rejected).toBe(0);
    }
    all = await readAll(userId, type, "all", 1000);
  });

  it("keeps what the brute-force merge keeps, in every page size", async () => {
    const streams = await rankedSampleStreams(db, userId, type);
    expect(streams.length).toBe(4);
    const expected = bruteForceMerge(all, streams, kind);
    expect(expected.length).toBeLessThan(all.length);
    for (const limit of [1, 7, 50, 1000]) {
      expect(summary(await readAll(userId, type, "merged", limit)), `pages of ${limit}`).toEqual(expected);
    }
  });

  it("ranks a stream missing from the streams last, and reads the same without the legacy table", async () => {
    // The scale's stream left out of the ranked streams: its samples are unranked.
    const streams = (await rankedSampleStreams(db, userId, type)).filter((s) => s.provider !== SCALE.provider);
    const expected = bruteForceMerge(all, streams, kind);
    const first = new Date(Date.parse(all[0]!.start_date));
    const hours = hoursAround(first, new Date(T0 + 60 * 24 * H));
    for (const legacy of [undefined, false]) {
      const read = await listMergedQuantitySamples(db, { userId, type, limit: 100_000, legacy }, hours, streams, kind);
      const got = read.rows.map((row) => ({ id: Number(row.id), outranked: (row.outranked ?? []).map(label).sort() }));
      expect(got, `legacy ${legacy}`).toEqual(expected);
    }
    // A window cut short of the page: each read of a window answers as the read of the whole does.
    for (const legacy of [undefined, false]) {
      const rows: Array<{ id: number }> = [];
      let from = first;
      for (let reads = 0; reads < 500 && from < hours.to; reads++) {
        const read = await listMergedQuantitySamples(db, { userId, type, start: from, limit: 5, legacy }, { from: hoursAround(from, from).from, to: hours.to }, streams, kind);
        const kept = read.rows.slice(0, 5);
        rows.push(...kept.map((row) => ({ id: Number(row.id) })));
        from = read.rows.length > 5 ? new Date(Number(read.rows[5]!.start_ms)) : read.readUpTo;
        if (read.rows.length > 5) {
          // Starting again at the sixth row's time: the rows before it at that very time were taken already.
          const sameTime = kept.filter((row) => Number(row.start_ms) === from.getTime()).length;
          rows.splice(rows.length - sameTime, sameTime);
        }
      }
      expect(rows, `legacy ${legacy}`).toEqual(expected.map(({ id }) => ({ id })));
    }
  });
});

describe("merged pages of a type with one stream", () => {
  it("answer the view all, each sample outranking none, in every page size", async () => {
    const userId = (await createUser(db, tenantId, "one-stream")).id;
    const samples = awkwardSamples("readings", 21).filter((s) => s.stream === WATCH);
    const records: QuantitySampleRecord[] = samples.map((s, i) => ({
      type: "heart_rate",
      value: s.value,
      start_date: new Date(T0 + s.start),
      source: WATCH.source,
      on_body: WATCH.on_body,
      external_id: `one-${i}`,
    }));
    await db.$transaction((tx) => writeQuantitySamples(tx, { userId, provider: WATCH.provider }, records));
    const all = await readAll(userId, "heart_rate", "all", 1000);
    expect(all.length).toBe(samples.length);
    expect(all.every((s) => s.outranked === undefined)).toBe(true);
    for (const limit of [1, 7, 1000]) {
      expect(await readAll(userId, "heart_rate", "merged", limit), `pages of ${limit}`).toEqual(all.map((s) => ({ ...s, outranked: [] })));
    }
  });
});
