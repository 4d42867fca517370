import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { HeartbeatSeriesRecord } from "@svc/core";
import type { TestService } from "../helpers/test-service.ts";
import { at, createUser, expectBadRequest, expectReadAccessRules, readAllPages, startWithTwoTenants, writeHeartbeats } from "../helpers/records.ts";

let svc: TestService;
let key: string;
let otherKey: string;

beforeAll(async () => {
  ({ svc, key, otherKey } = await startWithTwoTenants());
});
afterAll(() => svc?.stop());

// RR intervals of a chest strap: 3000 ms is impossible, 790 ms follows a gap.
const STRAP_RR = [800, 820, 780, 850, 3000, 810, 790, 800];
const strapSeries = (extra: Partial<HeartbeatSeriesRecord> = {}): HeartbeatSeriesRecord => ({
  start_date: at("2026-03-01T08:00:00Z"),
  rr_intervals: STRAP_RR.map((interval_ms, i) => ({ interval_ms, preceded_by_gap: i === 6 })),
  source: "polar",
  device: "H10",
  on_body: true,
  external_id: "strap-1",
  ...extra,
});

// Beat times of a watch (HealthKit): the fifth beat follows a gap.
const watchStart = Date.parse("2026-03-01T09:00:00Z");
const watchSeries = (extra: Partial<HeartbeatSeriesRecord> = {}): HeartbeatSeriesRecord => ({
  start_date: new Date(watchStart),
  beats: [0, 1000, 2000, 2900, 6000, 6950].map((offset, i) => ({ timestamp: new Date(watchStart + offset), preceded_by_gap: i === 4 })),
  source: "apple",
  device: "Apple Watch",
  on_body: true,
  ...extra,
});

describe("heartbeat series: RR intervals and HRV", () => {
  it("computes HRV per series: gaps and impossible intervals are left out", async () => {
    const user = await createUser(svc, key);
    const summary = await writeHeartbeats(svc, user, "polar", [strapSeries()]);
    expect(summary).toMatchObject({ inserted: 1, rejected: 0, types: ["heartbeat_series"], days: ["2026-03-01"] });
    await writeHeartbeats(svc, user, "apple_health", [watchSeries()]);

    const answer = await svc.call(`/v1/users/${user}/hrv`, { key });
    expect(answer.status, answer.text).toBe(200);
    const [strap, watch] = answer.body.data;
    // Counted: 800 820 780 850 810 800 (3000 is impossible, 790 follows a gap).
    // Successive differences only between adjacent counted intervals: 20, -40, 70.
    expect(strap).toEqual({
      series_id: expect.any(String),
      first_beat_at: "2026-03-01T08:00:00.000Z",
      last_beat_at: "2026-03-01T08:00:08.650Z",
      beat_count: 9,
      rmssd_ms: expect.closeTo(Math.sqrt((20 ** 2 + 40 ** 2 + 70 ** 2) / 3), 9),
      sdnn_ms: expect.closeTo(Math.sqrt(2800 / 5), 9),
      pnn50: expect.closeTo(100 / 3, 9),
      mean_rr_ms: expect.closeTo(810, 9),
      mean_heart_rate: expect.closeTo(60_000 / 810, 9),
      provider: "polar",
      source: "polar",
      device: "H10",
      ingested_at: expect.stringMatching(/Z$/),
    });
    // Intervals 1000 1000 900 [3100 after a gap] 950; differences 0 and -100.
    expect(watch).toMatchObject({
      first_beat_at: "2026-03-01T09:00:00.000Z",
      last_beat_at: "2026-03-01T09:00:06.950Z",
      beat_count: 6,
      provider: "apple_health",
      source: "apple",
    });
    expect(watch.rmssd_ms).toBeCloseTo(Math.sqrt(5000), 9);
    expect(watch.sdnn_ms).toBeCloseTo(Math.sqrt(6875 / 3), 9);
    expect(watch.pnn50).toBeCloseTo(50, 9);
    expect(watch.mean_rr_ms).toBeCloseTo(962.5, 9);
    expect(watch.mean_heart_rate).toBeCloseTo(60_000 / 962.5, 9);

    const rr = await svc.call(`/v1/users/${user}/rr-intervals?series_id=${strap.series_id}`, { key });
    expect(rr.body.data.map((r: { interval_ms: number }) => r.interval_ms)).toEqual(STRAP_RR);
    expect(rr.body.data[0]).toEqual({
      series_id: strap.series_id,
      timestamp: "2026-03-01T08:00:00.800Z",
      interval_ms: 800,
      preceded_by_gap: false,
      provider: "polar",
      source: "polar",
      device: "H10",
      ingested_at: expect.stringMatching(/Z$/),
    });
    expect(rr.body.data[6]).toMatchObject({ interval_ms: 790, preceded_by_gap: true, timestamp: "2026-03-01T08:00:07.850Z" });

    const watchRr = await svc.call(`/v1/users/${user}/rr-intervals?series_id=${watch.series_id}`, { key });
    expect(watchRr.body.data.map((r: { interval_ms: number; preceded_by_gap: boolean }) => [r.interval_ms, r.preceded_by_gap])).toEqual([
      [1000, false],
      [1000, false],
      [900, false],
      [3100, true],
      [950, false],
    ]);
  });

  it("gives null figures where too few intervals count", async () => {
    const user = await createUser(svc, key);
    await writeHeartbeats(svc, user, "polar", [
      strapSeries({ external_id: "one", rr_intervals: [{ interval_ms: 900 }] }),
      strapSeries({ external_id: "none", start_date: at("2026-03-01T10:00:00Z"), rr_intervals: [{ interval_ms: 100 }, { interval_ms: 4000 }] }),
    ]);
    const [one, none] = (await svc.call(`/v1/users/${user}/hrv`, { key })).body.data;
    expect(one).toMatchObject({ beat_count: 2, mean_rr_ms: 900, mean_heart_rate: 60_000 / 900, sdnn_ms: null, rmssd_ms: null, pnn50: null });
    expect(none).toMatchObject({ beat_count: 3, mean_rr_ms: null, mean_heart_rate: null, sdnn_ms: null, rmssd_ms: null, pnn50: null });
  });

  it("pages intervals by beat time and HRV by first beat, with filters", async () => {
    const user = await createUser(svc, key);
    const series = Array.from({ length: 7 }, (_, i) =>
      strapSeries({ external_id: `s-${i}`, start_date: new Date(Date.parse("2026-03-01T08:00:00Z") + i * 3_600_000) }),
    );
    // Two series starting at one time: the series id breaks the tie.
    series.push(strapSeries({ external_id: "twin", start_date: at("2026-03-01T10:00:00Z"), device: "H9" }));
    await writeHeartbeats(svc, user, "polar", series);

    const hrv = await readAllPages(svc, `/v1/users/${user}/hrv`, key, 3);
    expect(hrv).toHaveLength(8);
    expect(new Set(hrv.map((h) => h.series_id)).size).toBe(8);
    const hrvOrder = hrv.map((h) => `${h.first_beat_at}|${h.series_id}`);
    expect(hrvOrder).toEqual([...hrvOrder].sort());

    const rr = await readAllPages(svc, `/v1/users/${user}/rr-intervals`, key, 7);
    expect(rr).toHaveLength(64);
    expect(new Set(rr.map((r) => `${r.series_id}|${r.timestamp}`)).size).toBe(64);
    const rrTimes = rr.map((r) => r.timestamp);
    expect(rrTimes).toEqual([...rrTimes].sort());

    const window = await svc.call(`/v1/users/${user}/rr-intervals?start=2026-03-01T08:00:01Z&end=2026-03-01T08:00:03.250Z`, { key });
    expect(window.body.data.map((r: { timestamp: string }) => r.timestamp)).toEqual(["2026-03-01T08:00:01.620Z", "2026-03-01T08:00:02.400Z"]);
    const hrvWindow = await svc.call(`/v1/users/${user}/hrv?start=2026-03-01T10:00:00Z&end=2026-03-01T12:00:00Z`, { key });
    expect(hrvWindow.body.data).toHaveLength(3);
    const one = hrv[0].series_id;
    const filtered = await svc.call(`/v1/users/${user}/hrv?series_id=${one}`, { key });
    expect(filtered.body.data.map((h: { series_id: string }) => h.series_id)).toEqual([one]);
    const unknown = await svc.call(`/v1/users/${user}/rr-intervals?series_id=00000000-0000-4000-8000-000000000000`, { key });
    expect(unknown.body.data).toEqual([]);
  });

  it("stores a series ingested twice once; a changed series replaces its intervals and recomputes HRV", async () => {
    const user = await createUser(svc, key);
    await writeHeartbeats(svc, user, "polar", [strapSeries()]);
    const [before] = (await svc.call(`/v1/users/${user}/hrv`, { key })).body.data;
    const stored = await svc.db.hrvResult.findFirstOrThrow({ where: { seriesId: before.series_id } });
    expect(await writeHeartbeats(svc, user, "polar", [strapSeries()])).toMatchObject({ inserted: 0, updated: 0, unchanged: 1, days: [] });
    expect((await svc.db.hrvResult.findFirstOrThrow({ where: { seriesId: before.series_id } })).computedAt).toEqual(stored.computedAt);

    // Same beats, but the 790 ms interval no longer follows a gap.
    const noGap = strapSeries({ rr_intervals: STRAP_RR.map((interval_ms) => ({ interval_ms })) });
    expect(await writeHeartbeats(svc, user, "polar", [noGap])).toMatchObject({ updated: 1 });
    const [after] = (await svc.call(`/v1/users/${user}/hrv`, { key })).body.data;
    expect(after.series_id).toBe(before.series_id);
    expect(Date.parse(after.ingested_at)).toBeGreaterThan(Date.parse(before.ingested_at));
    // Counted now: 800 820 780 850 810 790 800; differences 20 -40 70 -20 10.
    expect(after.mean_rr_ms).toBeCloseTo(5650 / 7, 9);
    expect(after.rmssd_ms).toBeCloseTo(Math.sqrt((400 + 1600 + 4900 + 400 + 100) / 5), 9);
    const rr = await svc.call(`/v1/users/${user}/rr-intervals`, { key });
    expect(rr.body.data).toHaveLength(8);
    expect(rr.body.data.some((r: { preceded_by_gap: boolean }) => r.preceded_by_gap)).toBe(false);
  });

  it("rejects series it cannot store without quoting a value", async () => {
    const user = await createUser(svc, key);
    const summary = await writeHeartbeats(svc, user, "polar", [
      strapSeries({ external_id: "both", beats: [{ timestamp: at("2026-03-01T08:00:00Z") }] }),
      strapSeries({ external_id: "neither", rr_intervals: [] }),
      strapSeries({ external_id: "one-beat", rr_intervals: undefined, beats: [{ timestamp: at("2026-03-01T08:00:00Z") }] }),
      strapSeries({ external_id: "negative", rr_intervals: [{ interval_ms: 812.5 }, { interval_ms: -812.5 }] }),
      watchSeries({ external_id: "backwards", beats: [{ timestamp: at("2026-03-01T09:00:01Z") }, { timestamp: at("2026-03-01T09:00:00.5Z") }] }),
      strapSeries({ external_id: "early-end", end_date: at("2026-03-01T08:00:01Z") }),
      strapSeries({ external_id: "ok" }),
    ]);
    expect(summary).toMatchObject({ inserted: 1, rejected: 6 });
    const rejected = await svc.db.rejectedRecord.findMany({ where: { userId: user } });
    expect(rejected.every((r) => r.recordKind === "heartbeat_series" && !r.reason.includes("812"))).toBe(true);
  });

  it.each([
    ["rr-intervals", "series_id=nope", "series_id"],
    ["rr-intervals", "start=2026-03-02&end=2026-03-01", "end"],
    ["rr-intervals", "limit=1001", "limit"],
    ["rr-intervals", "cursor=nonsense", "cursor"],
    ["hrv", "series_id=nope", "series_id"],
    ["hrv", "start=soon", "start"],
    ["hrv", "limit=0", "limit"],
    ["hrv", "cursor=nonsense", "cursor"],
  ])("GET %s answers 400 for %s", async (resource, query, field) => {
    const user = await createUser(svc, key);
    expectBadRequest(await svc.call(`/v1/users/${user}/${resource}?${query}`, { key }), field);
  });

  it("pages long series (stored in chunks of 4096) across series and windows; a cursor of the release before is a 400 like any invalid one", async () => {
    const user = await createUser(svc, key);
    // 10,000 intervals (three chunks), beats every 700 ms, and 5,000 of a second strap every 1400 ms from
    // the 5000th beat of the first on: half of its beats fall on a beat of the first.
    const long = (id: string, start: string, intervals: number[]): HeartbeatSeriesRecord => ({
      ...strapSeries({ external_id: id, start_date: at(start), device: id }),
      rr_intervals: intervals.map((interval_ms, i) => ({ interval_ms, preceded_by_gap: i % 1000 === 999 })),
    });
    await writeHeartbeats(svc, user, "polar", [
      long("a", "2026-03-02T08:00:00Z", Array.from({ length: 10_000 }, (_, i) => (i % 2 === 0 ? 700.25 : 699.75))),
      long("b", "2026-03-02T08:58:20Z", Array.from({ length: 5_000 }, () => 1400)),
    ]);
    const all = await readAllPages(svc, `/v1/users/${user}/rr-intervals`, key, 1000);
    expect(all).toHaveLength(15_000);
    const order = all.map((r) => `${r.timestamp}|${r.series_id}`);
    expect(order).toEqual([...order].sort());
    expect(new Set(order).size).toBe(15_000);
    expect(new Set(all.map((r) => r.timestamp)).size).toBe(15_000 - 2_500);
    expect(await readAllPages(svc, `/v1/users/${user}/rr-intervals`, key, 333)).toEqual(all);
    const [a] = all;
    const ofA = await readAllPages(svc, `/v1/users/${user}/rr-intervals?series_id=${a.series_id}`, key, 999);
    expect(ofA).toEqual(all.filter((r) => r.series_id === a.series_id));
    const window = "start=2026-03-02T09:00:00.700Z&end=2026-03-02T09:30:00Z";
    const inWindow = all.filter((r) => r.timestamp >= "2026-03-02T09:00:00.700Z" && r.timestamp < "2026-03-02T09:30:00.000Z");
    expect(await readAllPages(svc, `/v1/users/${user}/rr-intervals?${window}`, key, 500)).toEqual(inWindow);

    // The cursor of the release before held the interval's row id, which no longer exists.
    const old = Buffer.from(JSON.stringify({ t: a.timestamp, id: "12345" })).toString("base64url");
    const answer = await svc.call(`/v1/users/${user}/rr-intervals?cursor=${old}`, { key });
    const nonsense = await svc.call(`/v1/users/${user}/rr-intervals?cursor=nonsense`, { key });
    expectBadRequest(answer, "cursor");
    expect({ ...answer.body, request_id: null }).toEqual({ ...nonsense.body, request_id: null });
  });

  it("keeps tenants apart and lets a user token with scope read see only its own user", async () => {
    const user = await createUser(svc, key);
    const other = await createUser(svc, key);
    await writeHeartbeats(svc, user, "polar", [strapSeries()]);
    for (const resource of ["rr-intervals", "hrv"]) {
      const own = await expectReadAccessRules(svc, { key, otherKey }, user, (id) => `/v1/users/${id}/${resource}`);
      expect(own.body.data.length).toBeGreaterThan(0);
    }
    // Another user's series id filters to nothing.
    const [series] = (await svc.call(`/v1/users/${user}/hrv`, { key })).body.data;
    expect((await svc.call(`/v1/users/${other}/hrv?series_id=${series.series_id}`, { key })).body.data).toEqual([]);
  });
});
