import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CategorySampleRecord } from "@svc/core";
import type { TestService } from "../helpers/test-service.ts";
import { at, createUser, expectBadRequest, expectReadAccessRules, readAllPages, startWithTwoTenants, writeCategory } from "../helpers/records.ts";

let svc: TestService;
let key: string;
let otherKey: string;

beforeAll(async () => {
  ({ svc, key, otherKey } = await startWithTwoTenants());
});
afterAll(() => svc?.stop());

const t0 = Date.parse("2026-03-01T08:00:00Z");
const headache = (i: number, extra: Partial<CategorySampleRecord> = {}): CategorySampleRecord => ({
  type: "headache",
  value: "mild",
  start_date: new Date(t0 + i * 3_600_000),
  end_date: new Date(t0 + i * 3_600_000 + 1_800_000),
  source: "apple",
  ...extra,
});

type Listed = { id: number; type: string; value: string; provider: string; start_date: string; outranked?: Array<{ provider: string; source: string }> };

async function list(user: string, query: string): Promise<Listed[]> {
  const answer = await svc.call(`/v1/users/${user}/category-samples?${query}`, { key });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data;
}

describe("GET /v1/users/{id}/category-samples", () => {
  it("pages through next_cursor with no duplicates or gaps, ordered by start_date then id", async () => {
    const user = await createUser(svc, key);
    const records = Array.from({ length: 30 }, (_, i) => headache(i));
    // Samples sharing a start time: the id breaks the tie in the order and the cursor.
    records.push(
      { type: "mindful_session", value: "meditation", start_date: new Date(t0 + 5 * 3_600_000), source: "apple", external_id: "m1" },
      { type: "mindful_session", value: "breathing", start_date: new Date(t0 + 5 * 3_600_000), source: "apple", external_id: "m2" },
    );
    await writeCategory(svc, user, "apple_health", records);

    for (const view of ["all", "merged"]) {
      const items = await readAllPages<Listed>(svc, `/v1/users/${user}/category-samples?view=${view}`, key, 7);
      expect(items).toHaveLength(32);
      expect(new Set(items.map((s) => s.id)).size).toBe(32);
      const order = items.map((s) => `${s.start_date}|${String(s.id).padStart(12, "0")}`);
      expect(order).toEqual([...order].sort());
    }
    const [first] = await list(user, "view=all&limit=1");
    expect(first).toMatchObject({ type: "headache", value: "mild", provider: "apple_health", source: "apple", end_date: "2026-03-01T08:30:00.000Z" });
    expect(first).not.toHaveProperty("unit");
    expect(first).not.toHaveProperty("outranked");
  });

  it("filters by type and by a half-open window on start_date", async () => {
    const user = await createUser(svc, key);
    await writeCategory(svc, user, "apple_health", [
      headache(0, { start_date: at("2026-03-01T23:59:59Z"), end_date: at("2026-03-02T00:30:00Z") }),
      headache(1, { start_date: at("2026-03-02T00:00:00Z"), end_date: at("2026-03-02T00:10:00Z") }),
      { type: "nausea", value: "moderate", start_date: at("2026-03-02T12:00:00Z"), source: "apple" },
      headache(3, { start_date: at("2026-03-03T00:00:00Z"), end_date: at("2026-03-03T01:00:00Z") }),
    ]);
    const byDate = await list(user, "start=2026-03-02&end=2026-03-03");
    expect(byDate.map((s) => s.type)).toEqual(["headache", "nausea"]);
    expect(byDate.map((s) => s.start_date)).toEqual(["2026-03-02T00:00:00.000Z", "2026-03-02T12:00:00.000Z"]);
    expect((await list(user, "type=headache")).map((s) => s.start_date.slice(0, 10))).toEqual(["2026-03-01", "2026-03-02", "2026-03-03"]);
    expect(await list(user, "type=nausea&view=all")).toHaveLength(1);
    expect(await list(user, "type=some_unknown_type")).toEqual([]);
  });

  it("merged view: samples of one type match when they overlap; each type is ranked on its own", async () => {
    const user = await createUser(svc, key);
    // Built-in order of the cycle group: apple before oura.
    await writeCategory(svc, user, "oura", [
      { type: "menstrual_flow", value: "medium", start_date: at("2026-03-01T00:00:00Z"), end_date: at("2026-03-02T00:00:00Z"), source: "oura" },
      { type: "menstrual_flow", value: "light", start_date: at("2026-03-02T00:00:00Z"), end_date: at("2026-03-03T00:00:00Z"), source: "oura" },
      { type: "headache", value: "mild", start_date: at("2026-03-01T10:00:00Z"), end_date: at("2026-03-01T11:00:00Z"), source: "oura" },
    ]);
    await writeCategory(svc, user, "apple_health", [
      { type: "menstrual_flow", value: "heavy", start_date: at("2026-03-01T06:00:00Z"), end_date: at("2026-03-01T07:00:00Z"), source: "apple" },
      // Touching the second Oura sample's start: no overlap.
      { type: "menstrual_flow", value: "light", start_date: at("2026-03-03T00:00:00Z"), end_date: at("2026-03-04T00:00:00Z"), source: "apple" },
      { type: "headache", value: "severe", start_date: at("2026-03-01T10:30:00Z"), end_date: at("2026-03-01T10:40:00Z"), source: "apple" },
    ]);
    const setOrder = await svc.call(`/v1/users/${user}/source-orders/headache`, { key, method: "PUT", body: { sources: ["oura", "apple"] } });
    expect(setOrder.status).toBe(200);

    const merged = await list(user, "");
    expect(merged.map((s) => `${s.type}/${s.provider}@${s.start_date.slice(5, 16)}`)).toEqual([
      "menstrual_flow/apple_health@03-01T06:00",
      "headache/oura@03-01T10:00",
      "menstrual_flow/oura@03-02T00:00",
      "menstrual_flow/apple_health@03-03T00:00",
    ]);
    const flow = merged.filter((s) => s.type === "menstrual_flow");
    expect(flow.find((s) => s.start_date === "2026-03-01T06:00:00.000Z")!.outranked).toEqual([{ provider: "oura", source: "oura" }]);
    expect(merged.find((s) => s.type === "headache")!.outranked).toEqual([{ provider: "apple_health", source: "apple" }]);
    // The same with a type filter, and all six in view=all.
    expect((await list(user, "type=headache")).map((s) => s.provider)).toEqual(["oura"]);
    expect(await list(user, "type=menstrual_flow")).toHaveLength(3);
    expect(await list(user, "view=all")).toHaveLength(6);
  });

  it.each([
    ["type=Not-A-Type", "type"],
    ["start=2026-03-02&end=2026-03-01", "end"],
    ["start=yesterday", "start"],
    ["limit=1001", "limit"],
    ["limit=0", "limit"],
    ["view=best", "view"],
    ["cursor=nonsense", "cursor"],
  ])("answers 400 for %s", async (query, field) => {
    const user = await createUser(svc, key);
    expectBadRequest(await svc.call(`/v1/users/${user}/category-samples?${query}`, { key }), field);
  });

  it("keeps tenants apart and lets a user token with scope read see only its own user", async () => {
    const user = await createUser(svc, key);
    await writeCategory(svc, user, "apple_health", [headache(0)]);
    const own = await expectReadAccessRules(svc, { key, otherKey }, user, (id) => `/v1/users/${id}/category-samples`);
    expect(own.body.data).toHaveLength(1);
  });

  it("stores a sample written twice once, and updates it when its value changes", async () => {
    const user = await createUser(svc, key);
    const sample = headache(0, { external_id: "h-1" });
    expect(await writeCategory(svc, user, "apple_health", [sample])).toMatchObject({ inserted: 1, updated: 0, unchanged: 0, types: ["headache"] });
    expect(await writeCategory(svc, user, "apple_health", [sample])).toMatchObject({ inserted: 0, updated: 0, unchanged: 1, types: [], days: [] });
    const changed = await writeCategory(svc, user, "apple_health", [{ ...sample, value: "severe" }]);
    expect(changed).toMatchObject({ inserted: 0, updated: 1, types: ["headache"], days: ["2026-03-01"] });
    const stored = await list(user, "view=all");
    expect(stored).toHaveLength(1);
    expect(stored[0]!.value).toBe("severe");
    // Without an external id the identity is the times, device and source name.
    const bare = { type: "sore_throat", value: "mild", start_date: at("2026-03-01T07:00:00Z"), source_name: "Health" };
    await writeCategory(svc, user, "apple_health", [bare, bare]);
    expect(await writeCategory(svc, user, "apple_health", [bare])).toMatchObject({ unchanged: 1 });
    expect(await list(user, "type=sore_throat&view=all")).toHaveLength(1);
  });

  it("rejects values outside the catalog's set, bad type names and bad times, without quoting values", async () => {
    const user = await createUser(svc, key);
    const summary = await writeCategory(svc, user, "apple_health", [
      { type: "menstrual_flow", value: "torrential", start_date: at("2026-03-01T00:00:00Z"), locator: "line 1" },
      { type: "Headache", value: "mild", start_date: at("2026-03-01T00:00:00Z"), locator: "line 2" },
      { type: "headache", value: "mild", start_date: at("2026-03-02T00:00:00Z"), end_date: at("2026-03-01T00:00:00Z"), locator: "line 3" },
      { type: "vendor_mood", value: "x".repeat(65), start_date: at("2026-03-01T00:00:00Z"), locator: "line 4" },
      // A type outside the catalog takes any short value.
      { type: "vendor_mood", value: "Sunny but tired", start_date: at("2026-03-01T00:00:00Z"), locator: "line 5" },
    ]);
    expect(summary).toMatchObject({ inserted: 1, rejected: 4 });
    const rejected = await svc.db.rejectedRecord.findMany({ where: { userId: user }, orderBy: { locator: "asc" } });
    expect(rejected.map((r) => [r.locator, r.recordKind])).toEqual([
      ["line 1", "category_sample"],
      ["line 2", "category_sample"],
      ["line 3", "category_sample"],
      ["line 4", "category_sample"],
    ]);
    expect(rejected[0]!.reason).toContain("unspecified, light, medium, heavy, none");
    for (const r of rejected) {
      expect(r.reason).not.toContain("torrential");
      expect(r.reason).not.toContain("xxxx");
    }
    const [stored] = await list(user, "type=vendor_mood");
    expect(stored!.value).toBe("Sunny but tired");
  });
});
