import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { refreshDerivedDailyTotals, type DailySummaryRecord, type QuantitySampleRecord } from "@svc/core";
import type { TestService } from "../helpers/test-service.ts";
import { at, createUser, expectBadRequest, expectReadAccessRules, mintToken, readAllPages, startWithTwoTenants, writeDaily, writeSamples } from "../helpers/records.ts";
import { uploadAndProcess } from "../helpers/uploads.ts";

let svc: TestService;
let key: string;
let otherKey: string;

beforeAll(async () => {
  ({ svc, key, otherKey } = await startWithTwoTenants());
});
afterAll(() => svc?.stop());

type Daily = {
  id: string;
  date: string;
  provider: string;
  source: string | null;
  steps: number | null;
  derived: boolean;
  outranked?: Array<{ provider: string; source: string }>;
  [field: string]: unknown;
};

async function daily(user: string, query = ""): Promise<Daily[]> {
  const answer = await svc.call(`/v1/users/${user}/daily${query}`, { key });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data;
}

const summary = (date: string, extra: Partial<DailySummaryRecord> = {}): DailySummaryRecord => ({ date, steps: 1000, ...extra });

const steps = (start: string, end: string, value: number, extra: Partial<QuantitySampleRecord> = {}): QuantitySampleRecord => ({
  type: "step_count",
  value,
  start_date: at(start),
  end_date: at(end),
  source: "apple",
  ...extra,
});

describe("GET /v1/users/{id}/daily: summaries providers send", () => {
  it("answers every field, ordered by date then id, paged with no duplicates or gaps", async () => {
    const user = await createUser(svc, key);
    const dates = Array.from({ length: 12 }, (_, i) => `2026-03-${String(i + 1).padStart(2, "0")}`);
    await writeDaily(svc, user, "garmin", dates.map((date, i) => summary(date, { steps: 5000 + i, source: "garmin" })));
    await writeDaily(svc, user, "oura", dates.slice(0, 5).map((date) => summary(date, { steps: 4000, source: "oura" })));
    const all = await readAllPages<Daily>(svc, `/v1/users/${user}/daily?view=all`, key, 5);
    expect(all).toHaveLength(17);
    expect(new Set(all.map((d) => d.id)).size).toBe(17);
    const order = all.map((d) => `${d.date}|${d.id}`);
    expect(order).toEqual([...order].sort());
    expect(all.every((d) => d.outranked === undefined)).toBe(true);

    const merged = await readAllPages<Daily>(svc, `/v1/users/${user}/daily`, key, 5);
    expect(merged.map((d) => d.date)).toEqual(dates);
  });

  it("stores every figure and the zone; a summary sent twice is stored once and updated when it changes", async () => {
    const user = await createUser(svc, key);
    const full = summary("2026-03-01", {
      timezone: "Europe/Berlin",
      steps: 10_234,
      distance_meters: 7_800.5,
      active_energy_kcal: 512,
      total_energy_kcal: 2_300,
      floors_climbed: 12,
      active_seconds: 3_600.4,
      resting_heart_rate: 52,
      average_heart_rate: 68,
      hrv_rmssd: 45.5,
      sleep_seconds: 27_000,
      score: 84,
      source: "oura",
      device: "Oura Ring 4",
      on_body: true,
      metadata: { day_id: "x" },
    });
    expect(await writeDaily(svc, user, "oura", [full])).toMatchObject({ inserted: 1, days: ["2026-03-01"], types: ["daily_summary"] });
    expect(await writeDaily(svc, user, "oura", [full])).toMatchObject({ inserted: 0, updated: 0, unchanged: 1, days: [] });
    const [stored] = await daily(user);
    expect(stored).toEqual({
      id: expect.any(String),
      date: "2026-03-01",
      timezone: "Europe/Berlin",
      steps: 10_234,
      distance_meters: 7_800.5,
      active_energy_kcal: 512,
      total_energy_kcal: 2_300,
      floors_climbed: 12,
      active_seconds: 3_600,
      resting_heart_rate: 52,
      average_heart_rate: 68,
      hrv_rmssd: 45.5,
      sleep_seconds: 27_000,
      score: 84,
      derived: false,
      metadata: { day_id: "x" },
      provider: "oura",
      source: "oura",
      device: "Oura Ring 4",
      ingested_at: expect.stringMatching(/Z$/),
      outranked: [],
    });
    expect(await writeDaily(svc, user, "oura", [{ ...full, score: 85 }])).toMatchObject({ updated: 1 });
    const after = await daily(user);
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: stored!.id, score: 85 });
  });

  it("compares start and end as dates: a YYYY-MM-DD or the date part of a time as written", async () => {
    const user = await createUser(svc, key);
    await writeDaily(svc, user, "garmin", ["2026-03-01", "2026-03-02", "2026-03-03", "2026-03-04"].map((d) => summary(d)));
    const dates = async (query: string) => (await daily(user, query)).map((d) => d.date);
    expect(await dates("?start=2026-03-02&end=2026-03-04")).toEqual(["2026-03-02", "2026-03-03"]);
    // 01:00 at +05:00 is still March 2 in UTC, but its date part is March 3.
    expect(await dates("?start=2026-03-03T01:00:00%2B05:00")).toEqual(["2026-03-03", "2026-03-04"]);
    expect(await dates("?end=2026-03-02T23:59:59Z")).toEqual(["2026-03-01"]);
    expect(await dates("?start=2026-03-02&end=2026-03-02")).toEqual([]);
  });

  it("merged view keeps the best ranked source of each date and lists what it outranked; all keeps every provider's", async () => {
    const user = await createUser(svc, key);
    await writeDaily(svc, user, "oura", [summary("2026-03-01", { source: "oura", steps: 1 }), summary("2026-03-02", { source: "oura", steps: 2 })]);
    await writeDaily(svc, user, "garmin", [summary("2026-03-01", { source: "garmin", steps: 3 })]);
    await writeDaily(svc, user, "apple_health", [summary("2026-03-01", { source: "apple", steps: 4 })]);

    // The built-in activity order: garmin, apple, ..., oura.
    const merged = await daily(user);
    expect(merged.map((d) => [d.date, d.provider])).toEqual([
      ["2026-03-01", "garmin"],
      ["2026-03-02", "oura"],
    ]);
    expect(merged[0]!.outranked).toEqual(
      expect.arrayContaining([
        { provider: "apple_health", source: "apple" },
        { provider: "oura", source: "oura" },
      ]),
    );
    expect(merged[0]!.outranked).toHaveLength(2);
    expect(merged[1]!.outranked).toEqual([]);
    expect(await daily(user, "?view=all")).toHaveLength(4);

    // The user's order for daily_summary (then activity, then *) wins over the built-in one.
    const put = await svc.call(`/v1/users/${user}/source-orders/daily_summary`, { key, method: "PUT", body: { sources: ["oura"] } });
    expect(put.status, put.text).toBe(200);
    expect((await daily(user)).map((d) => d.provider)).toEqual(["oura", "oura"]);
  });

  it("rejects summaries it cannot store without quoting a value", async () => {
    const user = await createUser(svc, key);
    const result = await writeDaily(svc, user, "garmin", [
      summary("2026-02-30"),
      summary("2026-03-01", { steps: -12.5 }),
      summary("2026-03-02", { sleep_seconds: 500_000 }),
      summary("2026-03-03"),
    ]);
    expect(result).toMatchObject({ inserted: 1, rejected: 3 });
    const rejected = await svc.db.rejectedRecord.findMany({ where: { userId: user } });
    expect(rejected.every((r) => r.recordKind === "daily_summary" && !r.reason.includes("12.5") && !r.reason.includes("500000"))).toBe(true);
  });
});

describe("derived daily totals", () => {
  it("sums one provider's merged samples per local day: a phone and a watch are not counted twice", async () => {
    const user = await createUser(svc, key);
    await writeSamples(svc, user, "apple_health", [
      steps("2026-03-01T10:00:00Z", "2026-03-01T10:10:00Z", 100, { on_body: false, device: "iPhone" }),
      steps("2026-03-01T10:05:00Z", "2026-03-01T10:15:00Z", 80, { on_body: true, device: "Apple Watch" }),
      steps("2026-03-01T11:00:00Z", "2026-03-01T11:10:00Z", 50, { on_body: false, device: "iPhone" }),
      { type: "active_energy_burned", value: 300, unit: "kcal", start_date: at("2026-03-01T12:00:00Z"), end_date: at("2026-03-01T13:00:00Z"), source: "apple", on_body: true },
      { type: "basal_energy_burned", value: 1600, unit: "kcal", start_date: at("2026-03-01T00:00:00Z"), end_date: at("2026-03-01T23:00:00Z"), source: "apple", on_body: true },
      { type: "distance_walking_running", value: 2, unit: "km", start_date: at("2026-03-01T10:00:00Z"), end_date: at("2026-03-01T10:30:00Z"), source: "apple", on_body: true },
      // Another type and another day.
      { type: "heart_rate", value: 60, start_date: at("2026-03-01T10:00:00Z"), source: "apple" },
      steps("2026-03-02T09:00:00Z", "2026-03-02T09:10:00Z", 40, { on_body: false, device: "iPhone" }),
    ]);
    const days = await daily(user);
    expect(days).toEqual([
      {
        id: expect.any(String),
        date: "2026-03-01",
        timezone: "UTC",
        steps: 130,
        distance_meters: 2000,
        active_energy_kcal: 300,
        total_energy_kcal: 1900,
        floors_climbed: null,
        active_seconds: null,
        resting_heart_rate: null,
        average_heart_rate: null,
        hrv_rmssd: null,
        sleep_seconds: null,
        score: null,
        derived: true,
        metadata: { derived_from: ["step_count", "active_energy_burned", "basal_energy_burned", "distance_walking_running"] },
        provider: "apple_health",
        source: "apple",
        device: null,
        ingested_at: expect.stringMatching(/Z$/),
        outranked: [],
      },
      expect.objectContaining({ date: "2026-03-02", steps: 40, device: "iPhone", total_energy_kcal: null, metadata: { derived_from: ["step_count"] } }),
    ]);
  });

  it("sums exactly what the merged view of samples keeps when the provider is the user's only one", async () => {
    const user = await createUser(svc, key);
    const records: QuantitySampleRecord[] = [];
    const base = Date.parse("2026-03-01T06:00:00Z");
    const streams = [
      { source: "apple", on_body: true, device: "Apple Watch" },
      { source: "apple", on_body: false, device: "iPhone" },
      { source: "nike", on_body: false, device: "iPhone" },
    ];
    // Irregular lengths (some of no length, some touching) so that every kind of overlap occurs.
    for (let i = 0; i < 90; i++) {
      const stream = streams[(i * 7) % 3]!;
      const start = base + ((i * 37) % 120) * 60_000 + (i % 4) * 15_000;
      const length = [0, 60_000, 5 * 60_000, 17 * 60_000][i % 4]!;
      records.push({ type: "step_count", value: i + 1, start_date: new Date(start), end_date: new Date(start + length), ...stream, external_id: `s${i}` });
    }
    await writeSamples(svc, user, "apple_health", records);
    const merged = await readAllPages<{ value: number }>(svc, `/v1/users/${user}/samples?type=step_count`, key, 1000);
    expect(merged.length).toBeLessThan(90);
    const [day] = await daily(user);
    expect(day!.steps).toBe(merged.reduce((sum, s) => sum + s.value, 0));
  });

  it("keeps each provider's own totals, and the merged view picks one per date", async () => {
    const user = await createUser(svc, key);
    await writeSamples(svc, user, "apple_health", [steps("2026-03-01T10:00:00Z", "2026-03-01T10:10:00Z", 100)]);
    await writeSamples(svc, user, "garmin", [steps("2026-03-01T10:00:00Z", "2026-03-01T10:10:00Z", 90, { source: "garmin" })]);
    const all = await daily(user, "?view=all");
    expect(all.map((d) => [d.provider, d.steps, d.derived]).sort()).toEqual([
      ["apple_health", 100, true],
      ["garmin", 90, true],
    ]);
    expect((await daily(user)).map((d) => [d.provider, d.outranked])).toEqual([["garmin", [{ provider: "apple_health", source: "apple" }]]]);
  });

  it("counts a sample on the local date of its start in its zone (IANA or ±hh:mm)", async () => {
    const user = await createUser(svc, key);
    await writeSamples(svc, user, "health_connect", [
      // 22:00 on March 1 in New York.
      steps("2026-03-02T03:00:00Z", "2026-03-02T03:10:00Z", 11, { timezone: "America/New_York", source: "samsung" }),
      // 23:50 on March 1 in New York.
      steps("2026-03-02T04:50:00Z", "2026-03-02T05:00:00Z", 22, { timezone: "America/New_York", source: "samsung" }),
      // 00:10 on March 2 in New York.
      steps("2026-03-02T05:10:00Z", "2026-03-02T05:20:00Z", 33, { timezone: "America/New_York", source: "samsung" }),
    ]);
    await writeSamples(svc, user, "xiaomi", [
      // 01:30 on March 2 at +05:30, still March 1 in UTC.
      steps("2026-03-01T20:00:00Z", "2026-03-01T20:10:00Z", 44, { timezone: "+05:30", source: "xiaomi" }),
      // 05:00 on March 1 at -03:00.
      steps("2026-03-01T08:00:00Z", "2026-03-01T08:10:00Z", 55, { timezone: "-03:00", source: "xiaomi" }),
      // No zone: UTC.
      steps("2026-03-01T23:30:00Z", "2026-03-01T23:40:00Z", 66, { source: "xiaomi" }),
    ]);
    const all = await daily(user, "?view=all");
    const figures = all.map((d) => [d.provider, d.date, d.steps, d.timezone]);
    expect(figures.sort()).toEqual([
      ["health_connect", "2026-03-01", 33, "America/New_York"],
      ["health_connect", "2026-03-02", 33, "America/New_York"],
      ["xiaomi", "2026-03-01", 121, null],
      ["xiaomi", "2026-03-02", 44, "+05:30"],
    ]);
  });

  it("never replaces a summary the provider sent, which replaces the derived one", async () => {
    const user = await createUser(svc, key);
    await writeSamples(svc, user, "garmin", [steps("2026-03-01T10:00:00Z", "2026-03-01T10:10:00Z", 100, { source: "garmin" })]);
    const [derived] = await daily(user);
    expect(derived).toMatchObject({ steps: 100, derived: true });

    await writeDaily(svc, user, "garmin", [summary("2026-03-01", { steps: 12_000, source: "garmin", resting_heart_rate: 50 })]);
    const [sent] = await daily(user);
    expect(sent).toMatchObject({ id: derived!.id, steps: 12_000, resting_heart_rate: 50, derived: false, metadata: {} });

    await writeSamples(svc, user, "garmin", [steps("2026-03-01T12:00:00Z", "2026-03-01T12:10:00Z", 500, { source: "garmin" })]);
    expect(await daily(user)).toEqual([sent]);
    // Deriving for the day again leaves the sent summary alone, even with no samples left.
    await svc.db.$executeRaw`DELETE FROM quantity_sample_chunks WHERE user_id = ${user}::uuid`;
    await svc.db.$transaction((tx) => refreshDerivedDailyTotals(tx, user, "garmin", ["2026-03-01"]));
    expect(await daily(user)).toEqual([sent]);
  });

  it("an upload written in several batches totals each day over all of them", async () => {
    const user = await createUser(svc, key);
    const token = await mintToken(svc, key, user, ["upload"]);
    // 12,000 one-step samples, 10 s apart from 2026-03-05 00:00 UTC: three batches of the
    // Apple Health parser (5,000 each), the first day's in all three.
    const t0 = Date.parse("2026-03-05T00:00:00Z");
    const lines = Array.from({ length: 12_000 }, (_, i) => ({
      kind: "quantity",
      uuid: `S-${i}`,
      type: "HKQuantityTypeIdentifierStepCount",
      value: 1,
      unit: "count",
      start: new Date(t0 + i * 10_000).toISOString(),
      end: new Date(t0 + i * 10_000 + 5_000).toISOString(),
      source: { name: "iPhone", bundle_id: "com.apple.health" },
    }));
    await uploadAndProcess(svc, token, "apple-health", lines);
    expect((await daily(user)).map((d) => [d.date, d.steps, d.derived])).toEqual([
      ["2026-03-05", 8640, true],
      ["2026-03-06", 3360, true],
    ]);
  });

  it("re-ingesting the same samples changes nothing; a changed value updates the total; no samples left removes it", async () => {
    const user = await createUser(svc, key);
    const records = [
      steps("2026-03-01T10:00:00Z", "2026-03-01T10:10:00Z", 100, { external_id: "a" }),
      steps("2026-03-01T11:00:00Z", "2026-03-01T11:10:00Z", 50, { external_id: "b" }),
    ];
    await writeSamples(svc, user, "apple_health", records);
    const first = await daily(user);
    expect(first).toMatchObject([{ steps: 150, derived: true }]);
    expect(await writeSamples(svc, user, "apple_health", records)).toMatchObject({ inserted: 0, updated: 0 });
    expect(await daily(user)).toEqual(first);

    await writeSamples(svc, user, "apple_health", [{ ...records[1]!, value: 70 }]);
    const changed = await daily(user);
    expect(changed).toMatchObject([{ id: first[0]!.id, steps: 170 }]);

    await svc.db.$executeRaw`DELETE FROM quantity_sample_chunks WHERE user_id = ${user}::uuid`;
    await svc.db.$transaction((tx) => refreshDerivedDailyTotals(tx, user, "apple_health", ["2026-03-01"]));
    expect(await daily(user)).toEqual([]);
  });
});

describe("GET /v1/users/{id}/daily: rules", () => {
  it.each([
    ["start=2026-03-02&end=2026-03-01", "end"],
    ["start=yesterday", "start"],
    ["end=2026-02-30", "end"],
    ["view=best", "view"],
    ["limit=1001", "limit"],
    ["limit=0", "limit"],
    ["cursor=nonsense", "cursor"],
  ])("answers 400 for %s", async (query, field) => {
    const user = await createUser(svc, key);
    expectBadRequest(await svc.call(`/v1/users/${user}/daily?${query}`, { key }), field);
  });

  it("keeps tenants apart and lets a user token with scope read see only its own user", async () => {
    const user = await createUser(svc, key);
    await writeDaily(svc, user, "garmin", [summary("2026-03-01")]);
    const own = await expectReadAccessRules(svc, { key, otherKey }, user, (id) => `/v1/users/${id}/daily`);
    expect(own.body.data).toHaveLength(1);
  });
});
