import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { NutritionLogRecord } from "@svc/core";
import type { TestService } from "../helpers/test-service.ts";
import { at, createUser, expectBadRequest, expectReadAccessRules, readAllPages, startWithTwoTenants, writeNutrition } from "../helpers/records.ts";

let svc: TestService;
let key: string;
let otherKey: string;

beforeAll(async () => {
  ({ svc, key, otherKey } = await startWithTwoTenants());
});
afterAll(() => svc?.stop());

const t0 = Date.parse("2026-03-01T07:00:00Z");
const meal = (i: number, extra: Partial<NutritionLogRecord> = {}): NutritionLogRecord => ({
  start_date: new Date(t0 + i * 3_600_000),
  end_date: new Date(t0 + i * 3_600_000 + 900_000),
  meal_type: "snack",
  name: `item ${i}`,
  energy_kcal: 100 + i,
  source: "myfitnesspal",
  external_id: `m-${i}`,
  ...extra,
});

describe("GET /v1/users/{id}/nutrition", () => {
  it("answers every field and pages by start_date with no duplicates or gaps", async () => {
    const user = await createUser(svc, key);
    const records = Array.from({ length: 23 }, (_, i) => meal(i));
    // Two logs at one start time: the id breaks the tie.
    records.push(meal(5, { external_id: "same-time-a" }), meal(5, { external_id: "same-time-b" }));
    records.push(
      meal(30, {
        meal_type: "Breakfast",
        name: "oatmeal",
        energy_kcal: 350,
        protein_grams: 12,
        carbohydrates_grams: 60,
        fat_grams: 6,
        fiber_grams: 8,
        sugar_grams: 9,
        sodium_milligrams: 140,
        water_milliliters: 250,
        nutrients: { caffeine: { value: 95, unit: "mg" } },
        source_name: "MyFitnessPal",
        device: "iPhone",
        timezone: "Europe/Berlin",
        metadata: { meal_id: 7 },
        external_id: "full",
      }),
    );
    const summary = await writeNutrition(svc, user, "myfitnesspal", records);
    expect(summary).toMatchObject({ inserted: 26, updated: 0, rejected: 0, types: ["nutrition_log"] });

    const items = await readAllPages(svc, `/v1/users/${user}/nutrition`, key, 4);
    expect(items).toHaveLength(26);
    expect(new Set(items.map((n) => n.id)).size).toBe(26);
    const order = items.map((n) => n.start_date);
    expect(order).toEqual([...order].sort());
    expect(items.at(-1)).toEqual({
      id: expect.any(String),
      start_date: "2026-03-02T13:00:00.000Z",
      end_date: "2026-03-02T13:15:00.000Z",
      meal_type: "breakfast",
      name: "oatmeal",
      energy_kcal: 350,
      protein_grams: 12,
      carbohydrates_grams: 60,
      fat_grams: 6,
      fiber_grams: 8,
      sugar_grams: 9,
      sodium_milligrams: 140,
      water_milliliters: 250,
      nutrients: { caffeine: { value: 95, unit: "mg" } },
      source_name: "MyFitnessPal",
      external_id: "full",
      metadata: { meal_id: 7, timezone: "Europe/Berlin" },
      provider: "myfitnesspal",
      source: "myfitnesspal",
      device: "iPhone",
      ingested_at: expect.stringMatching(/Z$/),
    });
    expect(items[0]).toMatchObject({ protein_grams: null, nutrients: {}, metadata: {} });
  });

  it("filters by a half-open window on start_date", async () => {
    const user = await createUser(svc, key);
    await writeNutrition(svc, user, "cronometer", [
      meal(0, { start_date: at("2026-03-01T23:59:59Z"), end_date: undefined }),
      meal(1, { start_date: at("2026-03-02T00:00:00Z"), end_date: undefined }),
      meal(2, { start_date: at("2026-03-02T23:00:00Z"), end_date: undefined }),
      meal(3, { start_date: at("2026-03-03T00:00:00Z"), end_date: undefined }),
    ]);
    const byDate = await svc.call(`/v1/users/${user}/nutrition?start=2026-03-02&end=2026-03-03`, { key });
    expect(byDate.status).toBe(200);
    expect(byDate.body.data.map((n: { external_id: string }) => n.external_id)).toEqual(["m-1", "m-2"]);
    expect(byDate.body.data[0].end_date).toBe("2026-03-02T00:00:00.000Z");
    const byTime = await svc.call(`/v1/users/${user}/nutrition?start=2026-03-02T01:00:00%2B01:00`, { key });
    expect(byTime.body.data).toHaveLength(3);
  });

  it("stores a log ingested twice once, and updates it when a field changes", async () => {
    const user = await createUser(svc, key);
    expect(await writeNutrition(svc, user, "cronometer", [meal(0)])).toMatchObject({ inserted: 1 });
    expect(await writeNutrition(svc, user, "cronometer", [meal(0)])).toMatchObject({ inserted: 0, updated: 0, unchanged: 1, days: [] });
    const first = (await svc.call(`/v1/users/${user}/nutrition`, { key })).body.data[0];
    expect(await writeNutrition(svc, user, "cronometer", [meal(0, { energy_kcal: 999 })])).toMatchObject({
      updated: 1,
      days: ["2026-03-01"],
    });
    const after = (await svc.call(`/v1/users/${user}/nutrition`, { key })).body.data;
    expect(after).toHaveLength(1);
    expect(after[0]).toMatchObject({ id: first.id, energy_kcal: 999 });
    // Without an external id, the times, device and source name identify a log.
    const anonymous = meal(1, { external_id: null });
    await writeNutrition(svc, user, "cronometer", [anonymous, anonymous]);
    await writeNutrition(svc, user, "cronometer", [anonymous]);
    expect((await svc.call(`/v1/users/${user}/nutrition`, { key })).body.data).toHaveLength(2);
  });

  it("keeps an unknown meal type as null and rejects bad amounts without quoting them", async () => {
    const user = await createUser(svc, key);
    const summary = await writeNutrition(svc, user, "cronometer", [
      meal(0, { meal_type: "second breakfast" }),
      meal(1, { protein_grams: -3.25, locator: "line 2" }),
      meal(2, { start_date: at("2026-03-01T10:00:00Z"), end_date: at("2026-03-01T09:00:00Z") }),
      meal(3, { nutrients: { iron: { value: Number.NaN, unit: "mg" } } }),
    ]);
    expect(summary).toMatchObject({ inserted: 1, rejected: 3 });
    const [stored] = (await svc.call(`/v1/users/${user}/nutrition`, { key })).body.data;
    expect(stored).toMatchObject({ meal_type: null, metadata: { meal_type_as_sent: "second breakfast" } });
    const rejected = await svc.db.rejectedRecord.findMany({ where: { userId: user } });
    expect(rejected.map((r) => r.recordKind)).toEqual(["nutrition_log", "nutrition_log", "nutrition_log"]);
    expect(rejected.map((r) => r.locator).sort()).toEqual(["#2", "#3", "line 2"]);
    for (const r of rejected) expect(r.reason).not.toContain("3.25");
  });

  it.each([
    ["start=2026-03-02&end=2026-03-01", "end"],
    ["start=yesterday", "start"],
    ["limit=1001", "limit"],
    ["limit=0", "limit"],
    ["cursor=nonsense", "cursor"],
  ])("answers 400 for %s", async (query, field) => {
    const user = await createUser(svc, key);
    expectBadRequest(await svc.call(`/v1/users/${user}/nutrition?${query}`, { key }), field);
  });

  it("keeps tenants apart and lets a user token with scope read see only its own user", async () => {
    const user = await createUser(svc, key);
    await writeNutrition(svc, user, "cronometer", [meal(0)]);
    const own = await expectReadAccessRules(svc, { key, otherKey }, user, (id) => `/v1/users/${id}/nutrition`);
    expect(own.body.data).toHaveLength(1);
  });
});
