import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestService } from "../helpers/test-service.ts";
import { at, createUser, expectBadRequest, expectReadAccessRules, readAllPages, startWithTwoTenants, writeSamples } from "../helpers/records.ts";

let svc: TestService;
let key: string;
let otherKey: string;

beforeAll(async () => {
  ({ svc, key, otherKey } = await startWithTwoTenants());
});
afterAll(() => svc?.stop());

const t0 = Date.parse("2026-03-01T08:00:00Z");
const heartRate = (i: number, extra: object = {}) => ({
  type: "heart_rate",
  value: 60 + (i % 30),
  unit: "count/min",
  start_date: new Date(t0 + i * 60_000),
  source: "garmin",
  device: "Forerunner 965",
  on_body: true,
  ...extra,
});

describe("GET /v1/users/{id}/samples", () => {
  it("pages through next_cursor with no duplicates or gaps, oldest first", async () => {
    const user = await createUser(svc, key);
    // Three samples share one start time: the id breaks the tie in the order and the cursor.
    const records = Array.from({ length: 50 }, (_, i) => heartRate(i));
    records.push(heartRate(10, { device: "strap", external_id: "a" }), heartRate(10, { device: "strap", external_id: "b" }));
    await writeSamples(svc, user, "garmin", records);

    const items = await readAllPages(svc, `/v1/users/${user}/samples?type=heart_rate&view=all`, key, 7);
    expect(items).toHaveLength(52);
    expect(new Set(items.map((s) => s.id)).size).toBe(52);
    const order = items.map((s) => `${s.start_date}|${String(s.id).padStart(12, "0")}`);
    expect(order).toEqual([...order].sort());
    expect(items[0]).toMatchObject({ type: "heart_rate", unit: "count/min", provider: "garmin", source: "garmin", device: "Forerunner 965" });
    expect(items[0].ingested_at).toMatch(/Z$/);

    const merged = await readAllPages(svc, `/v1/users/${user}/samples?type=heart_rate`, key, 9);
    expect(merged).toHaveLength(52);
  });

  it("filters by a half-open window given as times or dates", async () => {
    const user = await createUser(svc, key);
    await writeSamples(svc, user, "garmin", [
      heartRate(0, { start_date: at("2026-03-01T23:59:59Z") }),
      heartRate(1, { start_date: at("2026-03-02T00:00:00Z") }),
      heartRate(2, { start_date: at("2026-03-02T12:00:00Z") }),
      heartRate(3, { start_date: at("2026-03-03T00:00:00Z") }),
    ]);
    const byDate = await svc.call(`/v1/users/${user}/samples?type=heart_rate&start=2026-03-02&end=2026-03-03`, { key });
    expect(byDate.body.data.map((s: { start_date: string }) => s.start_date)).toEqual(["2026-03-02T00:00:00.000Z", "2026-03-02T12:00:00.000Z"]);
    const byTime = await svc.call(`/v1/users/${user}/samples?type=heart_rate&start=2026-03-02T01:00:00%2B01:00`, { key });
    expect(byTime.body.data).toHaveLength(3);
  });

  it.each([
    ["type=not_a_type", "type"],
    ["type=heart_rate&start=2026-03-02&end=2026-03-01", "end"],
    ["type=heart_rate&start=yesterday", "start"],
    ["type=heart_rate&limit=1001", "limit"],
    ["type=heart_rate&limit=0", "limit"],
    ["type=heart_rate&view=best", "view"],
    ["type=heart_rate&cursor=nonsense", "cursor"],
    ["", "type"],
  ])("answers 400 for %s", async (query, field) => {
    const user = await createUser(svc, key);
    expectBadRequest(await svc.call(`/v1/users/${user}/samples?${query}`, { key }), field);
  });

  it("reads a type outside the catalog only when the user has samples of it", async () => {
    const user = await createUser(svc, key);
    expect((await svc.call(`/v1/users/${user}/samples?type=vendor_stress_index`, { key })).status).toBe(400);
    await writeSamples(svc, user, "garmin", [{ type: "vendor_stress_index", value: 3, unit: "{score}", start_date: at("2026-03-01T00:00:00Z") }]);
    const answer = await svc.call(`/v1/users/${user}/samples?type=vendor_stress_index`, { key });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toHaveLength(1);
  });

  it("keeps tenants apart and lets a user token with scope read see only its own user", async () => {
    const user = await createUser(svc, key);
    await writeSamples(svc, user, "garmin", [heartRate(0)]);
    const own = await expectReadAccessRules(svc, { key, otherKey }, user, (id) => `/v1/users/${id}/samples?type=heart_rate`);
    expect(own.body.data).toHaveLength(1);
  });

  it("stores a sample ingested twice once, and updates it when its value changes", async () => {
    const user = await createUser(svc, key);
    const sample = { type: "body_mass", value: 150, unit: "lb", start_date: at("2026-03-01T07:00:00Z"), source: "withings", external_id: "w-1" };
    const first = await writeSamples(svc, user, "withings", [sample]);
    expect(first).toMatchObject({ inserted: 1, updated: 0, unchanged: 0 });
    const again = await writeSamples(svc, user, "withings", [sample]);
    expect(again).toMatchObject({ inserted: 0, updated: 0, unchanged: 1, days: [] });
    const changed = await writeSamples(svc, user, "withings", [{ ...sample, value: 151 }]);
    expect(changed).toMatchObject({ inserted: 0, updated: 1, days: ["2026-03-01"], types: ["body_mass"] });

    const answer = await svc.call(`/v1/users/${user}/samples?type=body_mass`, { key });
    expect(answer.body.data).toHaveLength(1);
    const [stored] = answer.body.data;
    expect(stored.unit).toBe("kg");
    expect(stored.value).toBeCloseTo(151 * 0.45359237, 6);
    expect(stored.metadata).toMatchObject({ original_value: 151, original_unit: "lb" });
  });

  it("gives provider ids back as sent, UUIDs in either case among them, and finds them when sent again moved", async () => {
    const user = await createUser(svc, key);
    const ids = ["E5F1C2A3-0B1C-4D2E-8F3A-9B8C7D6E5F40", "0f1e2d3c-4b5a-4978-8695-a4b3c2d1e0ff", "A1B2C3D4-E5F6-4A7B-8C9D-0E1F2A3B4C5D", "hr-77"];
    const samples = ids.map((external_id, i) => heartRate(i, { external_id }));
    expect(await writeSamples(svc, user, "garmin", samples)).toMatchObject({ inserted: 4 });
    const moved = samples.map((s) => ({ ...s, start_date: new Date(s.start_date.getTime() + 86_400_000) }));
    expect(await writeSamples(svc, user, "garmin", moved)).toMatchObject({ inserted: 0, updated: 4 });
    const answer = await svc.call(`/v1/users/${user}/samples?type=heart_rate`, { key });
    expect(answer.body.data.map((s: { external_id: string; start_date: string }) => [s.external_id, s.start_date])).toEqual(
      moved.map((s, i) => [ids[i], s.start_date.toISOString()]),
    );
  });

  it("records what it cannot store as rejected records without the value", async () => {
    const user = await createUser(svc, key);
    const summary = await writeSamples(svc, user, "garmin", [
      { type: "body_mass", value: 72.5, unit: "furlongs", start_date: at("2026-03-01T07:00:00Z"), locator: "line 3" },
      { type: "heart_rate", value: Number.NaN, start_date: at("2026-03-01T07:00:00Z") },
    ]);
    expect(summary).toMatchObject({ inserted: 0, rejected: 2 });
    const rejected = await svc.db.rejectedRecord.findMany({ where: { userId: user }, orderBy: { locator: "asc" } });
    expect(rejected.map((r) => r.locator)).toEqual(["#1", "line 3"]);
    for (const r of rejected) expect(r.reason).not.toContain("72.5");
  });
});

describe("tombstones", () => {
  it("a sample the provider deleted is not stored again", async () => {
    const user = await createUser(svc, key);
    const sample = { type: "heart_rate", value: 61, start_date: at("2026-03-01T07:00:00Z"), source: "garmin", external_id: "hr-9" };
    await svc.db.providerTombstone.create({ data: { userId: user, provider: "garmin", recordKind: "quantity_sample", dedupeKey: "id:hr-9" } });
    const summary = await writeSamples(svc, user, "garmin", [sample, { ...sample, external_id: "hr-10" }]);
    expect(summary).toMatchObject({ inserted: 1, unchanged: 1 });
    const answer = await svc.call(`/v1/users/${user}/samples?type=heart_rate`, { key });
    expect(answer.body.data.map((s: { external_id: string }) => s.external_id)).toEqual(["hr-10"]);
  });
});

describe("storage", () => {
  it("groups a series' samples per hour, and a read right after the import pages them in order", async () => {
    const user = await createUser(svc, key);
    const start = Date.parse("2025-06-01T00:00:00Z");
    await writeSamples(
      svc,
      user,
      "garmin",
      Array.from({ length: 20_000 }, (_, i) => ({ type: "heart_rate", value: 60 + (i % 7), start_date: new Date(start + i * 5000), source: "garmin" })),
    );
    // 20,000 samples 5 s apart span 27.8 hours: one row per hour.
    const [chunks] = await svc.db.$queryRaw<Array<{ rows: number; samples: number }>>`
      SELECT count(*)::int AS rows, sum(sample_count)::int AS samples FROM quantity_sample_chunks WHERE user_id = ${user}::uuid`;
    expect(chunks).toEqual({ rows: 28, samples: 20_000 });
    const page = await svc.call(`/v1/users/${user}/samples?type=heart_rate&start=2025-06-01T10:00:00Z&limit=1000`, { key });
    expect(page.body.data).toHaveLength(1000);
    expect(page.body.data[0]).toMatchObject({ start_date: "2025-06-01T10:00:00.000Z", value: 60 + (7200 % 7) });
    expect(page.body.data[999].start_date).toBe(new Date(Date.parse("2025-06-01T10:00:00Z") + 999 * 5000).toISOString());
  });
});
