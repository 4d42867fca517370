import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RoutePointRecord, WorkoutRecord } from "@svc/core";
import type { TestService } from "../helpers/test-service.ts";
import { at, createUser, expectBadRequest, expectReadAccessRules, readAllPages, startWithTwoTenants, writeWorkoutRecords } from "../helpers/records.ts";

let svc: TestService;
let key: string;
let otherKey: string;

beforeAll(async () => {
  ({ svc, key, otherKey } = await startWithTwoTenants());
});
afterAll(() => svc?.stop());

const HOUR = 3_600_000;
const run = (i: number, extra: Partial<WorkoutRecord> = {}): WorkoutRecord => ({
  activity_type: "running",
  start_date: new Date(Date.parse("2026-03-01T07:00:00Z") + i * 24 * HOUR),
  end_date: new Date(Date.parse("2026-03-01T08:00:00Z") + i * 24 * HOUR),
  source: "garmin",
  device: "Forerunner 965",
  on_body: true,
  ...extra,
});

/** One meter of latitude step in degrees along a meridian: 0.001° is R·π/180·0.001 m. */
const STEP_METERS = (6_371_008.8 * Math.PI) / 180 / 1000;
const ALTITUDES = [10, 12, 11, 15, null, 14];
const route = (n = 6, start = "2026-03-01T07:00:00Z"): RoutePointRecord[] =>
  Array.from({ length: n }, (_, i) => ({
    timestamp: new Date(Date.parse(start) + i * 10_000),
    latitude: 52.5 + i * 0.001,
    longitude: 13.4,
    altitude: ALTITUDES[i % ALTITUDES.length],
    speed: 3.2,
    heart_rate: 140 + i,
    accuracy: 4,
  }));

type Workout = { id: string; provider: string; activity_type: string; start_date: string; route_summary: Record<string, unknown> | null } & Record<string, unknown>;

async function workouts(user: string, query = ""): Promise<Workout[]> {
  const answer = await svc.call(`/v1/users/${user}/workouts?${query}`, { key });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data;
}

describe("GET /v1/users/{id}/workouts", () => {
  it("pages through next_cursor with no duplicates or gaps, ordered by start_date then id; filters type and window", async () => {
    const user = await createUser(svc, key);
    const records = Array.from({ length: 15 }, (_, i) => run(i, { external_id: `r${i}`, activity_type: i % 3 === 0 ? "cycling" : "running" }));
    records.push(run(4, { external_id: "twin", name: "Same start" }));
    await writeWorkoutRecords(svc, user, "garmin", records);
    for (const view of ["all", "merged"]) {
      const items = await readAllPages<Workout>(svc, `/v1/users/${user}/workouts?view=${view}`, key, 4);
      expect(items).toHaveLength(16);
      expect(new Set(items.map((w) => w.id)).size).toBe(16);
      const order = items.map((w) => `${w.start_date}|${w.id}`);
      expect(order).toEqual([...order].sort());
    }
    const cycling = await readAllPages<Workout>(svc, `/v1/users/${user}/workouts?type=cycling`, key, 2);
    expect(cycling.map((w) => w.external_id)).toEqual(["r0", "r3", "r6", "r9", "r12"]);
    const window = await workouts(user, "start=2026-03-02T07:00:00Z&end=2026-03-04");
    expect(window.map((w) => w.external_id)).toEqual(["r1", "r2"]);
    const [first] = await workouts(user, "limit=1");
    expect(first).toMatchObject({
      activity_type: "cycling",
      start_date: "2026-03-01T07:00:00.000Z",
      end_date: "2026-03-01T08:00:00.000Z",
      duration_seconds: 3600,
      distance_meters: null,
      provider: "garmin",
      source: "garmin",
      device: "Forerunner 965",
      route_summary: null,
      outranked: [],
    });
  });

  it("merged view: workouts of any activity type match when they share at least half of the shorter one", async () => {
    // Built-in workouts order: garmin before apple. Garmin: 07:00-08:00.
    const overlapCase = async (appleStart: string, appleEnd: string) => {
      const user = await createUser(svc, key);
      await writeWorkoutRecords(svc, user, "garmin", [run(0)]);
      await writeWorkoutRecords(svc, user, "apple_health", [{ activity_type: "walking", start_date: at(appleStart), end_date: at(appleEnd), source: "apple", on_body: true }]);
      return { user, providers: (await workouts(user)).map((w) => w.provider) };
    };
    // Exactly half of the shorter (30 of 60 minutes).
    expect((await overlapCase("2026-03-01T07:30:00Z", "2026-03-01T09:00:00Z")).providers).toEqual(["garmin"]);
    // Just above half.
    expect((await overlapCase("2026-03-01T07:29:00Z", "2026-03-01T09:00:00Z")).providers).toEqual(["garmin"]);
    // Just below half: both stay.
    expect((await overlapCase("2026-03-01T07:31:00Z", "2026-03-01T09:00:00Z")).providers).toEqual(["garmin", "apple_health"]);
    // A short workout entirely inside a long one matches it.
    const inside = await overlapCase("2026-03-01T07:10:00Z", "2026-03-01T07:20:00Z");
    expect(inside.providers).toEqual(["garmin"]);
    const [kept] = await workouts(inside.user);
    expect(kept!.outranked).toEqual([{ provider: "apple_health", source: "apple" }]);
    // The type filter applies to the workouts kept: Apple's walk is a duplicate of Garmin's run.
    expect(await workouts(inside.user, "type=walking")).toEqual([]);
    expect((await workouts(inside.user, "type=walking&view=all")).map((w) => w.provider)).toEqual(["apple_health"]);
  });

  it.each([
    ["type=Running", "type"],
    ["start=2026-03-02&end=2026-03-01", "end"],
    ["end=soon", "end"],
    ["limit=1001", "limit"],
    ["limit=0", "limit"],
    ["view=best", "view"],
    ["cursor=nonsense", "cursor"],
  ])("answers 400 for %s", async (query, field) => {
    const user = await createUser(svc, key);
    expectBadRequest(await svc.call(`/v1/users/${user}/workouts?${query}`, { key }), field);
  });

  it("keeps tenants apart and lets a user token with scope read see only its own user", async () => {
    const user = await createUser(svc, key);
    await writeWorkoutRecords(svc, user, "garmin", [run(0)]);
    const own = await expectReadAccessRules(svc, { key, otherKey }, user, (id) => `/v1/users/${id}/workouts`);
    expect(own.body.data).toHaveLength(1);
  });

  it("stores a workout written twice once, and updates it when a value changes", async () => {
    const user = await createUser(svc, key);
    const workout = run(0, { external_id: "g-1", distance_meters: 10_000, average_heart_rate: 150, timezone: "Europe/Berlin" });
    expect(await writeWorkoutRecords(svc, user, "garmin", [workout])).toMatchObject({ inserted: 1, updated: 0, unchanged: 0, types: ["workout"], days: ["2026-03-01"] });
    expect(await writeWorkoutRecords(svc, user, "garmin", [workout, workout])).toMatchObject({ inserted: 0, updated: 0, unchanged: 1, types: [], days: [] });
    expect(await writeWorkoutRecords(svc, user, "garmin", [{ ...workout, distance_meters: 10_100 }])).toMatchObject({ updated: 1 });
    const stored = await workouts(user, "view=all");
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ distance_meters: 10_100, average_heart_rate: 150, timezone: "Europe/Berlin", external_id: "g-1" });
  });

  it("rejects what it cannot store, naming fields and never values", async () => {
    const user = await createUser(svc, key);
    const summary = await writeWorkoutRecords(svc, user, "garmin", [
      run(0, { activity_type: "Trail Run", locator: "a" }),
      run(1, { end_date: at("2026-01-01T00:00:00Z"), locator: "b" }),
      run(2, { distance_meters: -4242, locator: "c" }),
      run(3, { locator: "d" }),
    ]);
    expect(summary).toMatchObject({ inserted: 1, rejected: 3 });
    const rejected = await svc.db.rejectedRecord.findMany({ where: { userId: user }, orderBy: { locator: "asc" } });
    expect(rejected.map((r) => [r.locator, r.recordKind])).toEqual(["a", "b", "c"].map((l) => [l, "workout"]));
    for (const r of rejected) for (const value of ["Trail Run", "4242"]) expect(r.reason).not.toContain(value);
  });

  it("never stores a duration longer than the workout's span: the span is stored, the duration as sent kept in metadata", async () => {
    const user = await createUser(svc, key);
    const summary = await writeWorkoutRecords(svc, user, "strava", [
      // An hour from start to end, 3601.5 s of it moving (Strava's moving time can exceed its elapsed time).
      run(0, { duration_seconds: 3601.5, external_id: "long" }),
      // Within a second of the span: providers round times and durations apart.
      run(1, { duration_seconds: 3601, external_id: "rounded" }),
    ]);
    expect(summary).toMatchObject({ inserted: 2, rejected: 0 });
    const stored = await workouts(user, "view=all");
    expect(stored.map((w) => [w.external_id, w.duration_seconds, (w.metadata as Record<string, unknown>).duration_seconds_as_sent])).toEqual([
      ["long", 3600, 3601.5],
      ["rounded", 3601, undefined],
    ]);
  });
});

describe("routes and track summaries", () => {
  async function workoutWithRoute(user: string, points = route()) {
    await writeWorkoutRecords(svc, user, "garmin", [run(0, { route: points })]);
    const [workout] = await workouts(user);
    return workout!;
  }

  it("stores the route, computes the track summary, and pages the points by timestamp", async () => {
    const user = await createUser(svc, key);
    const workout = await workoutWithRoute(user, route(6));
    const summary = workout.route_summary!;
    expect(summary).toMatchObject({
      point_count: 6,
      elevation_gain_meters: 6,
      elevation_loss_meters: 2,
      min_latitude: 52.5,
      min_longitude: 13.4,
      max_longitude: 13.4,
      first_point_at: "2026-03-01T07:00:00.000Z",
      last_point_at: "2026-03-01T07:00:50.000Z",
    });
    expect(summary.max_latitude as number).toBeCloseTo(52.505, 9);
    expect(summary.distance_meters as number).toBeCloseTo(5 * STEP_METERS, 3);

    const path = `/v1/users/${user}/workouts/${workout.id}/route`;
    const points = await readAllPages<Record<string, unknown>>(svc, path, key, 4);
    expect(points).toHaveLength(6);
    expect(points.map((p) => p.timestamp)).toEqual([0, 1, 2, 3, 4, 5].map((i) => new Date(Date.parse("2026-03-01T07:00:00Z") + i * 10_000).toISOString()));
    expect(points[0]).toEqual({
      timestamp: "2026-03-01T07:00:00.000Z",
      latitude: 52.5,
      longitude: 13.4,
      altitude_meters: 10,
      speed_meters_per_second: 3.2,
      heart_rate: 140,
      accuracy_meters: 4,
    });
    expect(points[4]!.altitude_meters).toBeNull();
    const window = await svc.call(`${path}?start=2026-03-01T07:00:10Z&end=2026-03-01T07:00:30Z`, { key });
    expect(window.body.data.map((p: { timestamp: string }) => p.timestamp)).toEqual(["2026-03-01T07:00:10.000Z", "2026-03-01T07:00:20.000Z"]);
  });

  it("leaves out invalid points with one rejected record, and keeps one point per timestamp", async () => {
    const user = await createUser(svc, key);
    const points = route(3);
    points.push(
      { timestamp: at("2026-03-01T07:01:00Z"), latitude: 91, longitude: 13.4 },
      { timestamp: at("2026-03-01T07:01:10Z"), latitude: 52.5, longitude: -181 },
      { timestamp: at("2026-03-01T07:01:20Z"), latitude: Number.NaN, longitude: 13.4 },
      // The same timestamp again: the last one given wins.
      { timestamp: at("2026-03-01T07:00:20Z"), latitude: 52.6, longitude: 13.5 },
    );
    await writeWorkoutRecords(svc, user, "garmin", [run(0, { route: points, locator: "activity.fit" })]);
    const [workout] = await workouts(user);
    expect(workout!.route_summary).toMatchObject({ point_count: 3, max_latitude: 52.6, max_longitude: 13.5 });
    const rejected = await svc.db.rejectedRecord.findMany({ where: { userId: user } });
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toMatchObject({ recordKind: "workout_route_point", locator: "activity.fit" });
    expect(rejected[0]!.reason).toContain("3 point");
    expect(rejected[0]!.reason).not.toContain("91");
  });

  it("replaces the route and its summary when the workout is written with a route; keeps them without one", async () => {
    const user = await createUser(svc, key);
    const workout = await workoutWithRoute(user, route(6));
    const path = `/v1/users/${user}/workouts/${workout.id}/route`;
    // The same route again: nothing changes.
    expect(await writeWorkoutRecords(svc, user, "garmin", [run(0, { route: route(6) })])).toMatchObject({ unchanged: 1, updated: 0 });
    // A shorter route, starting later: an update; old points are gone.
    const shorter = route(3, "2026-03-01T07:10:00Z");
    expect(await writeWorkoutRecords(svc, user, "garmin", [run(0, { route: shorter })])).toMatchObject({ updated: 1, days: ["2026-03-01"] });
    const points = (await svc.call(path, { key })).body.data;
    expect(points.map((p: { timestamp: string }) => p.timestamp)).toEqual(["2026-03-01T07:10:00.000Z", "2026-03-01T07:10:10.000Z", "2026-03-01T07:10:20.000Z"]);
    let [stored] = await workouts(user);
    expect(stored!.route_summary).toMatchObject({ point_count: 3, first_point_at: "2026-03-01T07:10:00.000Z", elevation_gain_meters: 2, elevation_loss_meters: 1 });
    expect(stored!.route_summary!.distance_meters as number).toBeCloseTo(2 * STEP_METERS, 3);
    // Without a route the stored one stays.
    await writeWorkoutRecords(svc, user, "garmin", [run(0, { name: "Morning run" })]);
    [stored] = await workouts(user);
    expect(stored).toMatchObject({ name: "Morning run", route_summary: { point_count: 3 } });
    // An empty route removes points and summary.
    await writeWorkoutRecords(svc, user, "garmin", [run(0, { name: "Morning run", route: [] })]);
    [stored] = await workouts(user);
    expect(stored!.route_summary).toBeNull();
    expect((await svc.call(path, { key })).body).toEqual({ data: [], next_cursor: null });
  });

  it("keeps tenants and users apart, is 404 for a workout of another user or tenant, and 400 for a malformed id or bad query", async () => {
    const user = await createUser(svc, key);
    const workout = await workoutWithRoute(user);
    const own = await expectReadAccessRules(svc, { key, otherKey }, user, (id) => `/v1/users/${id}/workouts/${workout.id}/route`);
    expect(own.body.data).toHaveLength(6);
    const sameTenant = await createUser(svc, key);
    expect((await svc.call(`/v1/users/${sameTenant}/workouts/${workout.id}/route`, { key })).status).toBe(404);
    const foreignUser = await createUser(svc, otherKey);
    expect((await svc.call(`/v1/users/${foreignUser}/workouts/${workout.id}/route`, { key: otherKey })).status).toBe(404);
    expect((await svc.call(`/v1/users/${user}/workouts/${crypto.randomUUID()}/route`, { key })).status).toBe(404);
    expect((await svc.call(`/v1/users/${user}/workouts/nope/route`, { key })).status).toBe(400);
    expect((await svc.call(`/v1/users/${user}/workouts/${workout.id}/route?limit=1001`, { key })).status).toBe(400);
    expect((await svc.call(`/v1/users/${user}/workouts/${workout.id}/route?start=2026-03-02&end=2026-03-01`, { key })).status).toBe(400);
  });
});
