import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  applyProviderDeletions,
  computeSampleStats,
  queueStaleMergedRollups,
  refreshMergedSampleRollups,
  type QuantitySampleRecord,
  type SampleStatsInput,
} from "@svc/core";
import { JobQueue } from "@svc/jobs";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { createUser, writeSamples } from "../helpers/records.ts";

// samples/stats from the rollups (records/samples/rollup-stats.ts) against the same stats
// computed from the samples, as before the rollups. The api role only: no worker computes the
// merged rollups behind the tests' back; the tests run the job's function themselves.
let svc: TestService;
let key: string;

beforeAll(async () => {
  svc = await startTestService({ SVC_ROLE: "api" });
  key = (await svc.createTenant()).api_key;
});
afterAll(() => svc?.stop());

const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** A deterministic stream of numbers in [0, 1). */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

type Stream = { provider: string; source: string; device: string; on_body: boolean };
const WATCH: Stream = { provider: "apple_health", source: "apple", device: "Apple Watch", on_body: true };
const PHONE: Stream = { provider: "apple_health", source: "apple", device: "iPhone", on_body: false };
const GARMIN: Stream = { provider: "garmin", source: "garmin", device: "Forerunner", on_body: true };
const POLAR: Stream = { provider: "polar", source: "polar", device: "H10", on_body: true };

/** The record fields of a stream (the provider is the batch's). */
const stream = ({ provider: _, ...fields }: Stream) => fields;

/** Samples of a stream every `stepMs` (jittered) over [from, to); some start right on or just before a quarter hour. */
function samples(stream: Stream, type: string, from: string, to: string, stepMs: number, seed: number, durationMs = 0): QuantitySampleRecord[] {
  const next = random(seed);
  const { provider: _, ...fields } = stream;
  const records: QuantitySampleRecord[] = [];
  for (let t = Date.parse(from); t < Date.parse(to); t += stepMs) {
    const roll = next();
    const start = roll < 0.1 ? Math.floor(t / (15 * MINUTE)) * 15 * MINUTE : roll < 0.2 ? Math.ceil(t / (15 * MINUTE)) * 15 * MINUTE - 1 : t + Math.floor(next() * stepMs * 0.5);
    // Heart rates are whole numbers; a strap's have tenths (sums then differ only in float rounding).
    const value = stream === POLAR ? Math.round(600 + next() * 400) / 10 : Math.round(type === "heart_rate" ? 50 + next() * 100 : next() * 300);
    records.push({ type, value, start_date: new Date(start), end_date: new Date(start + durationMs), ...fields });
  }
  return records;
}

async function write(user: string, records: QuantitySampleRecord[], provider: string) {
  await writeSamples(svc, user, provider, records);
}

/** Both answers, the one from the rollups first; `source` says where the rollups' came from. */
async function bothWays(user: string, input: SampleStatsInput) {
  const fromRollups = await computeSampleStats(svc.db, user, input);
  const fromSamples = await computeSampleStats(svc.db, user, input, { useRollups: false });
  expect(fromSamples.source).toBe("samples");
  return { fromRollups, fromSamples: fromSamples.stats };
}

/** Sums (and averages) of values with tenths are equal up to float rounding; everything else exactly. */
const rounded = (stats: Awaited<ReturnType<typeof computeSampleStats>>["stats"]) => ({
  ...stats,
  buckets: stats.buckets.map((b) => ({ ...b, sum: Number(b.sum.toFixed(6)), avg: Number(b.avg.toFixed(6)) })),
});

async function expectSameStats(user: string, input: SampleStatsInput, source: "rollups" | "samples" = "rollups") {
  const { fromRollups, fromSamples } = await bothWays(user, input);
  expect(rounded(fromRollups.stats), JSON.stringify(input)).toEqual(rounded(fromSamples));
  expect(fromRollups.source, JSON.stringify(input)).toBe(source);
  return fromRollups.stats;
}

const ZONES = ["UTC", "America/New_York", "Europe/Berlin", "Asia/Kolkata", "Asia/Kathmandu", "America/St_Johns", "Australia/Lord_Howe"];
// Around the changes of clocks in 2026: New York (March 8, November 1), Berlin (March 29, October 25).
const WINDOWS = [
  ["2026-03-06", "2026-03-10"],
  ["2026-03-27", "2026-03-31"],
  ["2026-10-23", "2026-10-27"],
  ["2026-10-30", "2026-11-03"],
] as const;

describe("stats from rollups", () => {
  let user: string;

  beforeAll(async () => {
    user = await createUser(svc, key);
    for (const [index, [from, to]] of WINDOWS.entries()) {
      const seed = index * 10;
      await write(user, [...samples(WATCH, "heart_rate", from, to, 7 * MINUTE, seed + 1), ...samples(PHONE, "step_count", from, to, 10 * MINUTE, seed + 2, 10 * MINUTE)], "apple_health");
      await write(
        user,
        [
          ...samples(GARMIN, "heart_rate", from, to, 11 * MINUTE, seed + 3),
          ...samples(GARMIN, "step_count", from, to, 25 * MINUTE, seed + 4, 15 * MINUTE),
          // A day total of a better source, which outranks every phone sample of that day.
          { type: "step_count", value: 9000, start_date: new Date(Date.parse(from) + DAY), end_date: new Date(Date.parse(from) + 2 * DAY), ...stream(GARMIN) },
        ],
        "garmin",
      );
      await write(user, samples(POLAR, "heart_rate", from, to, 13 * MINUTE, seed + 5), "polar");
    }
    for (const type of ["heart_rate", "step_count"]) await refreshMergedSampleRollups(svc.db, user, type);
  }, 120_000);

  it("answers as the samples do: every zone, hours and days, across changes of clocks, both views", async () => {
    for (const tz of ZONES) {
      for (const [from, to] of WINDOWS) {
        for (const view of ["all", "merged"] as const) {
          for (const type of ["heart_rate", "step_count"]) {
            const days = await expectSameStats(user, { type, start: from, end: to, interval: "day", tz, view });
            expect(days.buckets.length).toBeGreaterThan(0);
            await expectSameStats(user, { type, start: from, end: to, interval: "hour", tz, view });
          }
        }
      }
    }
  }, 300_000);

  it("days in zones off the whole hour start at their local midnight", async () => {
    const kathmandu = await expectSameStats(user, { type: "heart_rate", start: "2026-03-07", end: "2026-03-09", interval: "day", tz: "Asia/Kathmandu", view: "all" });
    expect(kathmandu.buckets.map((b) => b.start)).toContain("2026-03-07T00:00:00+05:45");
    const stJohns = await expectSameStats(user, { type: "heart_rate", start: "2026-03-07", end: "2026-03-10", interval: "day", tz: "America/St_Johns", view: "merged" });
    // Newfoundland moves its clocks on March 8 too: -03:30, then -02:30.
    expect(stJohns.buckets.map((b) => b.start)).toEqual(expect.arrayContaining(["2026-03-08T00:00:00-03:30", "2026-03-09T00:00:00-02:30"]));
  });

  it("one provider's stats: from the rollups in the view all, and in the merged view of a type only that provider has", async () => {
    await expectSameStats(user, { type: "heart_rate", start: "2026-03-06", end: "2026-03-10", interval: "hour", tz: "Asia/Kolkata", view: "all", provider: "garmin" });
    // Nothing to count, from either.
    await expectSameStats(user, { type: "heart_rate", start: "2026-03-06", end: "2026-03-10", interval: "day", tz: "Asia/Kolkata", view: "all", provider: "nobody" }, "samples");
    // The merged view of one provider among several merges that provider's samples alone: from the samples.
    await expectSameStats(user, { type: "heart_rate", start: "2026-03-06", end: "2026-03-10", interval: "day", tz: "UTC", view: "merged", provider: "garmin" }, "samples");
    const other = await createUser(svc, key);
    await write(other, samples(GARMIN, "heart_rate", "2026-03-06", "2026-03-08", 5 * MINUTE, 99), "garmin");
    await refreshMergedSampleRollups(svc.db, other, "heart_rate");
    await expectSameStats(other, { type: "heart_rate", start: "2026-03-06", end: "2026-03-10", interval: "day", tz: "UTC", view: "merged", provider: "garmin" });
  });

  it("computes from the samples where a zone's offset is not on a quarter hour (local mean time)", async () => {
    const old = await createUser(svc, key);
    await write(old, samples(GARMIN, "heart_rate", "1890-06-01", "1890-06-03", 30 * MINUTE, 7), "garmin");
    await refreshMergedSampleRollups(svc.db, old, "heart_rate");
    // Berlin kept its local mean time, +00:53:28, until 1893.
    for (const view of ["all", "merged"] as const) {
      await expectSameStats(old, { type: "heart_rate", start: "1890-06-01", end: "1890-06-03", interval: "day", tz: "Europe/Berlin", view }, "samples");
      await expectSameStats(old, { type: "heart_rate", start: "1890-06-01", end: "1890-06-03", interval: "hour", tz: "UTC", view });
    }
  });
});

describe("stats from rollups: the cap of 50000 samples", () => {
  it("counts the earliest 50000 as the samples do, in both views, also with part of the range stale", async () => {
    const user = await createUser(svc, key);
    const start = Date.parse("2026-03-07T00:00:00Z");
    const watch = Array.from({ length: 52_000 }, (_, i): QuantitySampleRecord => ({ type: "heart_rate", value: 60 + (i % 50), start_date: new Date(start + i * 5000), ...stream(GARMIN) }));
    const phone = Array.from({ length: 5_200 }, (_, i): QuantitySampleRecord => ({ type: "heart_rate", value: 70 + (i % 9), start_date: new Date(start + i * 50_000 + 1000), ...stream(PHONE) }));
    await write(user, watch, "garmin");
    await write(user, phone, "apple_health");
    await refreshMergedSampleRollups(svc.db, user, "heart_rate");
    for (const view of ["all", "merged"] as const) {
      for (const [interval, tz] of [["day", "America/New_York"], ["hour", "Asia/Kathmandu"], ["hour", "America/St_Johns"]] as const) {
        const stats = await expectSameStats(user, { type: "heart_rate", start: "2026-03-06", end: "2026-03-12", interval, tz, view });
        expect(stats.truncated).toBe(true);
        expect(stats.buckets.reduce((sum, b) => sum + b.count, 0)).toBe(50_000);
      }
      const early = await expectSameStats(user, { type: "heart_rate", start: "2026-03-07", end: "2026-03-08", interval: "hour", tz: "UTC", view });
      expect(early.truncated).toBe(false);
    }
    // A phone sample written into the second day: that stretch is stale for the merged view
    // until the job runs, and is computed from the samples; the rest still from the rollups.
    await write(user, [{ type: "heart_rate", value: 99, start_date: new Date(start + 30 * HOUR + 2500), ...stream(PHONE) }], "apple_health");
    const stale = await svc.db.$queryRaw<Array<{ from_hour: Date }>>`SELECT from_hour FROM quantity_sample_merged_dirty WHERE user_id = ${user}::uuid`;
    expect(stale.map((row) => row.from_hour.toISOString())).toEqual(["2026-03-08T06:00:00.000Z"]);
    for (const [interval, tz] of [["day", "America/New_York"], ["hour", "UTC"]] as const) {
      await expectSameStats(user, { type: "heart_rate", start: "2026-03-06", end: "2026-03-12", interval, tz, view: "merged" });
    }
  }, 180_000);

  it("in the merged view, also where the quarter of the cap keeps part of a stream's samples", async () => {
    const user = await createUser(svc, key);
    const order = await svc.call(`/v1/users/${user}/source-orders/heart_rate`, { key, method: "PUT", body: { sources: ["garmin", "apple"] } });
    expect(order.status, order.text).toBe(200);
    // The watch reads every second in the first 3 minutes of each quarter hour; the phone's
    // readings every 50 s are kept only more than 5 minutes from the watch's (08:00 to 10:00).
    const start = Date.parse("2026-03-07T00:00:00Z");
    const watch: QuantitySampleRecord[] = [];
    for (let quarter = 0; watch.length < 54_000; quarter++) {
      for (let s = 0; s < 180; s++) watch.push({ type: "heart_rate", value: 60 + (s % 40), start_date: new Date(start + quarter * 15 * MINUTE + s * 1000), ...stream(GARMIN) });
    }
    const phone = Array.from({ length: 5_300 }, (_, i): QuantitySampleRecord => ({ type: "heart_rate", value: 70 + (i % 9), start_date: new Date(start + i * 50_000 + 7000), ...stream(PHONE) }));
    await write(user, watch, "garmin");
    await write(user, phone, "apple_health");
    await refreshMergedSampleRollups(svc.db, user, "heart_rate");
    for (const [interval, tz] of [["day", "America/New_York"], ["hour", "Asia/Kolkata"]] as const) {
      const stats = await expectSameStats(user, { type: "heart_rate", start: "2026-03-06", end: "2026-03-12", interval, tz, view: "merged" });
      expect(stats.truncated).toBe(true);
      expect(stats.buckets.some((b) => b.provider === "apple_health")).toBe(true);
    }
  }, 180_000);
});

/** The rollups of the user by type, provider and device, as stored. */
async function storedRollups(user: string) {
  return svc.db.$queryRaw<Array<{ type: string; device: string; quarter: Date; count: number; sum: number; min: number; max: number }>>`
    SELECT r.type, r.device, x.quarter, sum(x.sample_count)::int AS count, sum(x.value_sum) AS sum, min(x.value_min) AS min, max(x.value_max) AS max
    FROM quantity_sample_rollups x JOIN quantity_sample_series r ON r.user_id = x.user_id AND r.id = x.series_id
    WHERE x.user_id = ${user}::uuid GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`;
}

/** The same computed from the stored samples (the view quantity_samples). */
async function rollupsOfSamples(user: string) {
  return svc.db.$queryRaw<Array<{ type: string; device: string; quarter: Date; count: number; sum: number; min: number; max: number }>>`
    SELECT type, device, date_bin('15 minutes', start_date, timestamptz '2000-01-01 00:00:00+00') AS quarter, count(*)::int AS count,
      sum(value) AS sum, min(value) AS min, max(value) AS max
    FROM quantity_samples WHERE user_id = ${user}::uuid GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`;
}

describe("rollups follow every change of the samples", () => {
  it("an update, a move to another hour, a provider's deletion and an erasure", async () => {
    const user = await createUser(svc, key);
    const sample = (id: string, iso: string, value: number): QuantitySampleRecord => ({ type: "heart_rate", value, start_date: new Date(iso), external_id: id, ...stream(GARMIN) });
    await write(user, [sample("a", "2026-03-01T10:01:00Z", 60), sample("b", "2026-03-01T10:14:00Z", 70), sample("c", "2026-03-01T10:16:00Z", 80)], "garmin");
    await write(user, samples(WATCH, "heart_rate", "2026-03-01T09:00:00Z", "2026-03-01T12:00:00Z", 4 * MINUTE, 3), "apple_health");
    const quarter = (iso: string) => (rows: Awaited<ReturnType<typeof storedRollups>>) =>
      rows.filter((row) => row.device === "Forerunner" && row.quarter.toISOString() === iso).map((row) => [row.count, row.sum, row.min, row.max]);
    const tenAm = quarter("2026-03-01T10:00:00.000Z");
    expect(tenAm(await storedRollups(user))).toEqual([[2, 130, 60, 70]]);
    expect(await storedRollups(user)).toEqual(await rollupsOfSamples(user));

    // A new value for b; a moved to 11:40.
    await write(user, [sample("b", "2026-03-01T10:14:00Z", 75), sample("a", "2026-03-01T11:40:00Z", 60)], "garmin");
    expect(tenAm(await storedRollups(user))).toEqual([[1, 75, 75, 75]]);
    expect(quarter("2026-03-01T11:30:00.000Z")(await storedRollups(user))).toEqual([[1, 60, 60, 60]]);
    expect(await storedRollups(user)).toEqual(await rollupsOfSamples(user));

    // The provider deletes b: the quarter is left with no sample and its rollup goes.
    expect(await svc.db.$transaction((tx) => applyProviderDeletions(tx, { userId: user, provider: "garmin" }, ["b"]))).toBe(1);
    expect(tenAm(await storedRollups(user))).toEqual([]);
    expect(await storedRollups(user)).toEqual(await rollupsOfSamples(user));
    const input: SampleStatsInput = { type: "heart_rate", start: "2026-03-01", end: "2026-03-02", interval: "hour", tz: "Asia/Kolkata", view: "all" };
    await expectSameStats(user, input);

    // An erasure deletes the provider's series (here by hand, as the erasure does): their
    // rollups go with them, and the merged view of the type is stale for all of time.
    await refreshMergedSampleRollups(svc.db, user, "heart_rate");
    await svc.db.$executeRaw`DELETE FROM quantity_sample_series WHERE user_id = ${user}::uuid AND provider = 'garmin'`;
    expect((await storedRollups(user)).filter((row) => row.device === "Forerunner")).toEqual([]);
    expect(await storedRollups(user)).toEqual(await rollupsOfSamples(user));
    const stale = await svc.db.$queryRaw<Array<{ from_hour: Date; to_hour: Date }>>`SELECT from_hour, to_hour FROM quantity_sample_merged_dirty WHERE user_id = ${user}::uuid`;
    expect(stale.map((row) => [row.from_hour.toISOString(), row.to_hour.toISOString()])).toEqual([["0001-01-01T00:00:00.000Z", "9999-01-01T00:00:00.000Z"]]);
    await expectSameStats(user, { ...input, view: "merged" }, "samples");
    await refreshMergedSampleRollups(svc.db, user, "heart_rate");
    await expectSameStats(user, { ...input, view: "merged" });
  });
});

describe("merged rollups", () => {
  it("are read once the job ran; a stale range (with the merge's reach) is computed from the samples until it runs again", async () => {
    const user = await createUser(svc, key);
    await write(user, samples(WATCH, "heart_rate", "2026-03-01", "2026-03-05", 5 * MINUTE, 1), "apple_health");
    await write(user, samples(GARMIN, "heart_rate", "2026-03-01", "2026-03-05", 6 * MINUTE, 2), "garmin");
    const day1: SampleStatsInput = { type: "heart_rate", start: "2026-03-01", end: "2026-03-02", interval: "hour", tz: "Europe/Berlin", view: "merged" };
    const day4: SampleStatsInput = { ...day1, start: "2026-03-04", end: "2026-03-05" };
    // Written, not computed yet: stale.
    await expectSameStats(user, day1, "samples");

    await refreshMergedSampleRollups(svc.db, user, "heart_rate");
    expect(await svc.db.$queryRaw`SELECT * FROM quantity_sample_merged_dirty WHERE user_id = ${user}::uuid`).toEqual([]);
    await expectSameStats(user, day1);
    await expectSameStats(user, day4);

    // A reading at 10:02 may change which samples the merged view keeps within 5 minutes of
    // it: 09:55 to 11:05 (its hour and the reach) comes from the samples, the rest of the day
    // still from the rollups.
    await write(user, [{ type: "heart_rate", value: 200, start_date: new Date("2026-03-01T10:02:00Z"), ...stream(GARMIN) }], "garmin");
    await expectSameStats(user, { ...day1, tz: "UTC", start: "2026-03-01T10:00:00Z", end: "2026-03-01T10:59:00Z" }, "samples");
    await expectSameStats(user, day1);
    await expectSameStats(user, day4);
    await refreshMergedSampleRollups(svc.db, user, "heart_rate");
    await expectSameStats(user, day1);

    // An order of sources makes the merged view of the type stale for all of time.
    const order = await svc.call(`/v1/users/${user}/source-orders/heart_rate`, { key, method: "PUT", body: { sources: ["garmin", "apple"] } });
    expect(order.status, order.text).toBe(200);
    await expectSameStats(user, day4, "samples");
    await refreshMergedSampleRollups(svc.db, user, "heart_rate");
    await expectSameStats(user, day4);
    await expectSameStats(user, day1);
  }, 120_000);

  it("are none for a type of one stream, whose merged view is the view all; a second stream makes all of time stale", async () => {
    const user = await createUser(svc, key);
    await write(user, samples(GARMIN, "heart_rate", "2026-03-01", "2026-03-03", 5 * MINUTE, 6), "garmin");
    const early: SampleStatsInput = { type: "heart_rate", start: "2026-03-01", end: "2026-03-02", interval: "hour", tz: "Asia/Kathmandu", view: "merged" };
    await expectSameStats(user, early);
    await refreshMergedSampleRollups(svc.db, user, "heart_rate");
    const mergedRows = () => svc.db.$queryRaw<Array<{ n: number }>>`SELECT count(*)::int AS n FROM quantity_sample_merged_rollups WHERE user_id = ${user}::uuid`;
    expect(await mergedRows()).toEqual([{ n: 0 }]);

    // A phone's samples a day later: the first day's merged view must now be computed too.
    await write(user, samples(PHONE, "heart_rate", "2026-03-02T12:00:00Z", "2026-03-03", 5 * MINUTE, 7), "apple_health");
    await expectSameStats(user, early, "samples");
    await refreshMergedSampleRollups(svc.db, user, "heart_rate");
    expect((await mergedRows())[0]!.n).toBeGreaterThan(0);
    await expectSameStats(user, early);
    await expectSameStats(user, { ...early, start: "2026-03-01", end: "2026-03-04", interval: "day" });
  });

  it("a sweep queues one job per stale user and type, once while it waits", async () => {
    const user = await createUser(svc, key);
    await write(user, samples(GARMIN, "heart_rate", "2026-03-01", "2026-03-02", 10 * MINUTE, 4), "garmin");
    await write(user, samples(GARMIN, "step_count", "2026-03-01", "2026-03-02", 10 * MINUTE, 5, 5 * MINUTE), "garmin");
    const jobs = await JobQueue.start(svc.databaseUrl, () => undefined);
    try {
      await queueStaleMergedRollups({ db: svc.db, jobs });
      await queueStaleMergedRollups({ db: svc.db, jobs });
    } finally {
      await jobs.stop();
    }
    const queued = await svc.db.$queryRaw<Array<{ data: { user_id: string; type: string } }>>`
      SELECT data FROM pgboss.job WHERE name = 'sample-merged-rollups' AND data->>'user_id' = ${user} ORDER BY data->>'type'`;
    expect(queued.map((job) => job.data.type)).toEqual(["heart_rate", "step_count"]);
  });
});
