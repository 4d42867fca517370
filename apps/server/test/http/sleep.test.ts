import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SleepSessionRecord } from "@svc/core";
import type { TestService } from "../helpers/test-service.ts";
import { at, createUser, expectBadRequest, expectReadAccessRules, readAllPages, startWithTwoTenants, writeSleep } from "../helpers/records.ts";

let svc: TestService;
let key: string;
let otherKey: string;

beforeAll(async () => {
  ({ svc, key, otherKey } = await startWithTwoTenants());
});
afterAll(() => svc?.stop());

const HOUR = 3_600_000;
const night = (day: number, extra: Partial<SleepSessionRecord> = {}): SleepSessionRecord => ({
  bedtime_start: new Date(Date.parse("2026-03-01T22:00:00Z") + day * 24 * HOUR),
  bedtime_end: new Date(Date.parse("2026-03-02T06:00:00Z") + day * 24 * HOUR),
  source: "oura",
  device: "Oura Ring 4",
  on_body: true,
  ...extra,
});

/** A night with phases: 22:00 in bed, 22:15 light, 23:00 deep, 00:30 rem, 01:00 awake, 01:10 light, until 06:00. */
const phasesOf = (start: string) => {
  const t = Date.parse(start);
  const m = (n: number) => new Date(t + n * 60_000);
  return [
    { stage: "awake", start_date: m(0), end_date: m(15) },
    { stage: "light", start_date: m(15), end_date: m(60) },
    { stage: "deep", start_date: m(60), end_date: m(150) },
    { stage: "rem", start_date: m(150), end_date: m(180) },
    { stage: "awake", start_date: m(180), end_date: m(190) },
    { stage: "light", start_date: m(190), end_date: m(480) },
    { stage: "in_bed", start_date: m(0), end_date: m(480) },
  ];
};

type Session = { id: string; provider: string; bedtime_start: string; outranked?: Array<{ provider: string; source: string }> } & Record<string, unknown>;

async function sessions(user: string, query = ""): Promise<Session[]> {
  const answer = await svc.call(`/v1/users/${user}/sleep?${query}`, { key });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data;
}

describe("GET /v1/users/{id}/sleep", () => {
  it("pages through next_cursor with no duplicates or gaps, ordered by bedtime_start then id", async () => {
    const user = await createUser(svc, key);
    const records = Array.from({ length: 20 }, (_, i) => night(i, { external_id: `n${i}` }));
    // A second session (a nap logged twice under two ids) with the same bedtime_start as another.
    records.push(night(3, { kind: "nap", external_id: "nap-a", bedtime_end: at("2026-03-04T23:00:00Z") }));
    await writeSleep(svc, user, "oura", records);
    const items = await readAllPages<Session>(svc, `/v1/users/${user}/sleep?view=all`, key, 6);
    expect(items).toHaveLength(21);
    expect(new Set(items.map((s) => s.id)).size).toBe(21);
    const order = items.map((s) => `${s.bedtime_start}|${s.id}`);
    expect(order).toEqual([...order].sort());
    const [first] = items;
    expect(first).toMatchObject({ kind: "sleep", bedtime_start: "2026-03-01T22:00:00.000Z", bedtime_end: "2026-03-02T06:00:00.000Z", provider: "oura", source: "oura", device: "Oura Ring 4", external_id: "n0" });
    expect(first).not.toHaveProperty("outranked");
    // In the merged view the nap shares all of itself with the night (same stream, so both stay).
    expect(await readAllPages(svc, `/v1/users/${user}/sleep`, key, 5)).toHaveLength(21);
  });

  it("filters by a half-open window on bedtime_start", async () => {
    const user = await createUser(svc, key);
    await writeSleep(svc, user, "oura", [night(0), night(1), night(2)]);
    const items = await sessions(user, "start=2026-03-02T22:00:00Z&end=2026-03-03T22:00:00Z");
    expect(items.map((s) => s.bedtime_start)).toEqual(["2026-03-02T22:00:00.000Z"]);
    expect(await sessions(user, "start=2026-03-01&end=2026-03-02")).toHaveLength(1);
  });

  it("derives stage totals from phases when the provider gives none, and keeps the ones it gives", async () => {
    const user = await createUser(svc, key);
    await writeSleep(svc, user, "apple_health", [
      night(0, { source: "apple", phases: phasesOf("2026-03-01T22:00:00Z"), timezone: "Europe/Berlin" }),
      night(1, { source: "apple", phases: phasesOf("2026-03-02T22:00:00Z"), deep_seconds: 1234, score: 81, efficiency: 0.5 }),
    ]);
    const [first, second] = await sessions(user);
    expect(first).toMatchObject({
      timezone: "Europe/Berlin",
      light_seconds: (45 + 290) * 60,
      deep_seconds: 90 * 60,
      rem_seconds: 30 * 60,
      awake_seconds: 25 * 60,
      total_sleep_seconds: (45 + 90 + 30 + 290) * 60,
      latency_seconds: 15 * 60,
      score: null,
      average_heart_rate: null,
    });
    expect(first!.efficiency).toBeCloseTo(455 / 480, 6);
    expect(second).toMatchObject({ deep_seconds: 1234, score: 81, efficiency: 0.5, light_seconds: 335 * 60 });
  });

  it("merged view: sessions match when they share at least half of the shorter one", async () => {
    // Built-in sleep order: oura before apple. Oura: 22:00-06:00; Apple: 4 hours.
    const overlapCase = async (appleStart: string, appleEnd: string) => {
      const user = await createUser(svc, key);
      await writeSleep(svc, user, "oura", [night(0)]);
      await writeSleep(svc, user, "apple_health", [{ bedtime_start: at(appleStart), bedtime_end: at(appleEnd), source: "apple", on_body: true }]);
      return (await sessions(user)).map((s) => s.provider);
    };
    // Shares exactly half (2 of 4 hours): match.
    expect(await overlapCase("2026-03-02T04:00:00Z", "2026-03-02T08:00:00Z")).toEqual(["oura"]);
    // Just above half.
    expect(await overlapCase("2026-03-02T03:59:00Z", "2026-03-02T07:59:00Z")).toEqual(["oura"]);
    // Just below half: both stay.
    expect(await overlapCase("2026-03-02T04:01:00Z", "2026-03-02T08:01:00Z")).toEqual(["oura", "apple_health"]);
    // A nap before bedtime sharing nothing stays.
    expect(await overlapCase("2026-03-01T14:00:00Z", "2026-03-01T15:00:00Z")).toEqual(["apple_health", "oura"]);

    const user = await createUser(svc, key);
    await writeSleep(svc, user, "oura", [night(0)]);
    await writeSleep(svc, user, "apple_health", [night(0, { source: "apple", device: "Apple Watch", bedtime_start: at("2026-03-01T23:00:00Z") })]);
    const [kept] = await sessions(user);
    expect(kept).toMatchObject({ provider: "oura", outranked: [{ provider: "apple_health", source: "apple" }] });
    expect(await sessions(user, "view=all")).toHaveLength(2);
    // The user's order for sleep_session wins over the built-in one.
    expect((await svc.call(`/v1/users/${user}/source-orders/sleep_session`, { key, method: "PUT", body: { sources: ["apple"] } })).status).toBe(200);
    expect((await sessions(user)).map((s) => s.provider)).toEqual(["apple_health"]);
  });

  it.each([
    ["start=2026-03-02&end=2026-03-01", "end"],
    ["start=tonight", "start"],
    ["limit=1001", "limit"],
    ["limit=0", "limit"],
    ["view=best", "view"],
    ["cursor=nonsense", "cursor"],
  ])("answers 400 for %s", async (query, field) => {
    const user = await createUser(svc, key);
    expectBadRequest(await svc.call(`/v1/users/${user}/sleep?${query}`, { key }), field);
  });

  it("keeps tenants apart and lets a user token with scope read see only its own user", async () => {
    const user = await createUser(svc, key);
    await writeSleep(svc, user, "oura", [night(0)]);
    const own = await expectReadAccessRules(svc, { key, otherKey }, user, (id) => `/v1/users/${id}/sleep`);
    expect(own.body.data).toHaveLength(1);
  });

  it("stores a session written twice once; a changed value or changed phases update it", async () => {
    const user = await createUser(svc, key);
    const session = night(0, { external_id: "s-1", score: 80, phases: phasesOf("2026-03-01T22:00:00Z") });
    expect(await writeSleep(svc, user, "oura", [session])).toMatchObject({ inserted: 1, updated: 0, unchanged: 0, types: ["sleep_session"], days: ["2026-03-01", "2026-03-02"] });
    expect(await writeSleep(svc, user, "oura", [session])).toMatchObject({ inserted: 0, updated: 0, unchanged: 1, types: [], days: [] });
    expect(await writeSleep(svc, user, "oura", [{ ...session, score: 82 }])).toMatchObject({ updated: 1 });
    // Same totals (given), other phases: an update.
    const fixed = { ...session, score: 82, total_sleep_seconds: 1, awake_seconds: 1, light_seconds: 1, deep_seconds: 1, rem_seconds: 1, latency_seconds: 1, efficiency: 0.1 };
    await writeSleep(svc, user, "oura", [fixed]);
    const reordered = { ...fixed, phases: [...fixed.phases!].reverse() };
    expect(await writeSleep(svc, user, "oura", [reordered])).toMatchObject({ unchanged: 1 });
    const fewer = { ...fixed, phases: fixed.phases!.slice(0, 2) };
    expect(await writeSleep(svc, user, "oura", [fewer])).toMatchObject({ updated: 1, days: ["2026-03-01", "2026-03-02"] });
    const all = await sessions(user, "view=all");
    expect(all).toHaveLength(1);
    expect(all[0]!.score).toBe(82);
  });

  it("rejects what it cannot store, naming fields and never values", async () => {
    const user = await createUser(svc, key);
    const summary = await writeSleep(svc, user, "oura", [
      night(0, { kind: "siesta", locator: "a" }),
      night(1, { efficiency: 87.5, locator: "b" }),
      night(2, { phases: [{ stage: "dreaming", start_date: at("2026-03-03T23:00:00Z"), end_date: at("2026-03-04T00:00:00Z") }], locator: "c" }),
      night(3, { bedtime_end: at("2026-03-01T00:00:00Z"), locator: "d" }),
      night(4, { average_heart_rate: -3, locator: "e" }),
      night(5),
    ]);
    expect(summary).toMatchObject({ inserted: 1, rejected: 5 });
    const rejected = await svc.db.rejectedRecord.findMany({ where: { userId: user }, orderBy: { locator: "asc" } });
    expect(rejected.map((r) => [r.locator, r.recordKind])).toEqual(["a", "b", "c", "d", "e"].map((l) => [l, "sleep_session"]));
    for (const r of rejected) {
      for (const value of ["siesta", "87.5", "dreaming", "-3"]) expect(r.reason).not.toContain(value);
    }
  });
});

describe("GET /v1/users/{id}/sleep/{session_id}/phases", () => {
  async function sessionWithPhases(user: string) {
    await writeSleep(svc, user, "apple_health", [night(0, { source: "apple", phases: phasesOf("2026-03-01T22:00:00Z") })]);
    const [session] = await sessions(user);
    return session!.id;
  }

  it("pages through the phases by start_date with no duplicates or gaps", async () => {
    const user = await createUser(svc, key);
    const id = await sessionWithPhases(user);
    const phases = await readAllPages<{ id: number; stage: string; start_date: string; end_date: string }>(svc, `/v1/users/${user}/sleep/${id}/phases`, key, 2);
    expect(phases).toHaveLength(7);
    expect(new Set(phases.map((p) => p.id)).size).toBe(7);
    const order = phases.map((p) => `${p.start_date}|${String(p.id).padStart(12, "0")}`);
    expect(order).toEqual([...order].sort());
    expect(phases[0]).toMatchObject({ start_date: "2026-03-01T22:00:00.000Z" });
    expect(phases.map((p) => p.stage).sort()).toEqual(["awake", "awake", "deep", "in_bed", "light", "light", "rem"]);

    const window = await svc.call(`/v1/users/${user}/sleep/${id}/phases?start=2026-03-01T23:00:00Z&end=2026-03-02T00:30:00Z`, { key });
    expect(window.body.data.map((p: { stage: string }) => p.stage)).toEqual(["deep"]);
  });

  it("replaces a session's phases when it is written with phases, and keeps them when written without", async () => {
    const user = await createUser(svc, key);
    const id = await sessionWithPhases(user);
    const newPhases = [{ stage: "asleep", start_date: at("2026-03-01T22:30:00Z"), end_date: at("2026-03-02T05:30:00Z") }];
    await writeSleep(svc, user, "apple_health", [night(0, { source: "apple", phases: newPhases })]);
    const path = `/v1/users/${user}/sleep/${id}/phases`;
    const replaced = await svc.call(path, { key });
    expect(replaced.body.data).toEqual([{ id: expect.any(Number), stage: "asleep", start_date: "2026-03-01T22:30:00.000Z", end_date: "2026-03-02T05:30:00.000Z" }]);
    const [session] = await sessions(user);
    // Only "asleep": total and latency are derived, stages are not.
    expect(session).toMatchObject({ id, total_sleep_seconds: 7 * 3600, latency_seconds: 1800, light_seconds: null, deep_seconds: null, awake_seconds: 0 });

    await writeSleep(svc, user, "apple_health", [night(0, { source: "apple" })]);
    expect((await svc.call(path, { key })).body.data).toHaveLength(1);
    await writeSleep(svc, user, "apple_health", [night(0, { source: "apple", phases: [] })]);
    expect((await svc.call(path, { key })).body.data).toEqual([]);
  });

  it("keeps tenants and users apart, is 404 for a session of another user or tenant, and 400 for a malformed id", async () => {
    const user = await createUser(svc, key);
    const id = await sessionWithPhases(user);
    await expectReadAccessRules(svc, { key, otherKey }, user, (userId) => `/v1/users/${userId}/sleep/${id}/phases`);
    const sameTenant = await createUser(svc, key);
    expect((await svc.call(`/v1/users/${sameTenant}/sleep/${id}/phases`, { key })).status).toBe(404);
    const foreignUser = await createUser(svc, otherKey);
    expect((await svc.call(`/v1/users/${foreignUser}/sleep/${id}/phases`, { key: otherKey })).status).toBe(404);
    expect((await svc.call(`/v1/users/${user}/sleep/${crypto.randomUUID()}/phases`, { key })).status).toBe(404);
    expect((await svc.call(`/v1/users/${user}/sleep/not-a-uuid/phases`, { key })).status).toBe(400);
    expect((await svc.call(`/v1/users/${user}/sleep/${id}/phases?limit=0`, { key })).status).toBe(400);
    expect((await svc.call(`/v1/users/${user}/sleep/${id}/phases?cursor=x`, { key })).status).toBe(400);
  });
});
