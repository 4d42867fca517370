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

const DAY = 86_400_000;

/** One day-long flow sample per date (UTC midnight to midnight), as Apple Health writes them. */
const flowDays = (dates: string[], extra: Partial<CategorySampleRecord> = {}): CategorySampleRecord[] =>
  dates.map((date) => ({
    type: "menstrual_flow",
    value: "medium",
    start_date: at(`${date}T00:00:00Z`),
    end_date: new Date(Date.parse(`${date}T00:00:00Z`) + DAY),
    source: "apple",
    ...extra,
  }));

/** YYYY-MM-DD dates from `first` for `n` days. */
const range = (first: string, n: number) => Array.from({ length: n }, (_, i) => new Date(Date.parse(`${first}T00:00:00Z`) + i * DAY).toISOString().slice(0, 10));

type Cycle = { id: string; start_date: string; end_date: string | null; period_end_date: string; period_length_days: number; cycle_length_days: number | null };

async function cycles(user: string, query = ""): Promise<Cycle[]> {
  const answer = await svc.call(`/v1/users/${user}/menstrual-cycles?${query}`, { key });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.data;
}

const shape = (list: Cycle[]) => list.map(({ id: _id, ...rest }) => rest);

describe("menstrual cycles derived from recorded flow", () => {
  it("starts a cycle at each period; cycle length runs to the next start; the last cycle is open", async () => {
    const user = await createUser(svc, key);
    await writeCategory(svc, user, "apple_health", flowDays([...range("2026-03-01", 5), ...range("2026-03-29", 5), ...range("2026-04-27", 2)]));
    expect(shape(await cycles(user))).toEqual([
      { start_date: "2026-03-01", end_date: "2026-03-28", period_end_date: "2026-03-05", period_length_days: 5, cycle_length_days: 28 },
      { start_date: "2026-03-29", end_date: "2026-04-26", period_end_date: "2026-04-02", period_length_days: 5, cycle_length_days: 29 },
      { start_date: "2026-04-27", end_date: null, period_end_date: "2026-04-28", period_length_days: 2, cycle_length_days: null },
    ]);
  });

  it("bridges one flow-free day inside a period; two flow-free days start a new cycle", async () => {
    const user = await createUser(svc, key);
    await writeCategory(svc, user, "apple_health", flowDays(["2026-03-01", "2026-03-02", "2026-03-04", "2026-03-05", "2026-03-08"]));
    expect(shape(await cycles(user))).toEqual([
      { start_date: "2026-03-01", end_date: "2026-03-07", period_end_date: "2026-03-05", period_length_days: 5, cycle_length_days: 7 },
      { start_date: "2026-03-08", end_date: null, period_end_date: "2026-03-08", period_length_days: 1, cycle_length_days: null },
    ]);
  });

  it("ignores flow `none`, counts `unspecified`, and covers every date of a multi-day sample", async () => {
    const user = await createUser(svc, key);
    await writeCategory(svc, user, "apple_health", [
      ...flowDays(["2026-03-01"], { value: "unspecified" }),
      ...flowDays(["2026-03-02"], { value: "none" }),
      ...flowDays(["2026-03-03"], { value: "light" }),
      { type: "menstrual_flow", value: "heavy", start_date: at("2026-03-20T00:00:00Z"), end_date: at("2026-03-23T00:00:00Z"), source: "apple" },
    ]);
    expect(shape(await cycles(user))).toEqual([
      { start_date: "2026-03-01", end_date: "2026-03-19", period_end_date: "2026-03-03", period_length_days: 3, cycle_length_days: 19 },
      { start_date: "2026-03-20", end_date: null, period_end_date: "2026-03-22", period_length_days: 3, cycle_length_days: null },
    ]);
  });

  it("uses the local date where the flow was recorded (offsets with their real sign, IANA zones)", async () => {
    const user = await createUser(svc, key);
    const instant = (start: string, timezone: string): CategorySampleRecord => ({ type: "menstrual_flow", value: "light", start_date: at(start), timezone, source: "apple" });
    await writeCategory(svc, user, "apple_health", [
      // 01:30 on the 10th in India.
      instant("2026-03-09T20:00:00Z", "+05:30"),
      // 22:00 on the 19th in New York (EDT).
      instant("2026-03-20T02:00:00Z", "America/New_York"),
      // 22:00 on the 29th at -03:00.
      instant("2026-03-30T01:00:00Z", "-03:00"),
    ]);
    expect((await cycles(user)).map((c) => c.start_date)).toEqual(["2026-03-10", "2026-03-19", "2026-03-29"]);
  });

  it("counts a period logged by two apps once", async () => {
    const user = await createUser(svc, key);
    await writeCategory(svc, user, "apple_health", flowDays([...range("2026-03-01", 4), ...range("2026-03-30", 3)]));
    await writeCategory(svc, user, "oura", flowDays([...range("2026-03-02", 4), ...range("2026-03-30", 2)], { source: "oura", value: "light" }));
    expect(shape(await cycles(user))).toEqual([
      { start_date: "2026-03-01", end_date: "2026-03-29", period_end_date: "2026-03-05", period_length_days: 5, cycle_length_days: 29 },
      { start_date: "2026-03-30", end_date: null, period_end_date: "2026-04-01", period_length_days: 3, cycle_length_days: null },
    ]);
  });

  it("recomputes when flow is added or changed, keeping the id of a cycle whose start stays", async () => {
    const user = await createUser(svc, key);
    await writeCategory(svc, user, "apple_health", flowDays(range("2026-03-01", 4)));
    const [first] = await cycles(user);
    expect(first).toMatchObject({ start_date: "2026-03-01", end_date: null, cycle_length_days: null });

    await writeCategory(svc, user, "apple_health", flowDays(["2026-03-27"], { external_id: "late" }));
    const two = await cycles(user);
    expect(two[0]).toMatchObject({ id: first!.id, end_date: "2026-03-26", cycle_length_days: 26 });
    expect(two[1]).toMatchObject({ start_date: "2026-03-27", end_date: null });

    // The same sample changed to `none`: the second cycle is gone again.
    await writeCategory(svc, user, "apple_health", flowDays(["2026-03-27"], { external_id: "late", value: "none" }));
    expect(shape(await cycles(user))).toEqual([
      { start_date: "2026-03-01", end_date: null, period_end_date: "2026-03-04", period_length_days: 4, cycle_length_days: null },
    ]);
    expect((await cycles(user))[0]!.id).toBe(first!.id);
    // Other category types leave cycles alone.
    await writeCategory(svc, user, "apple_health", [{ type: "headache", value: "mild", start_date: at("2026-03-15T10:00:00Z") }]);
    expect(await cycles(user)).toHaveLength(1);
  });
});

describe("GET /v1/users/{id}/menstrual-cycles", () => {
  async function threeCycles() {
    const user = await createUser(svc, key);
    await writeCategory(svc, user, "apple_health", flowDays([...range("2026-03-01", 5), ...range("2026-03-29", 5), ...range("2026-04-27", 2)]));
    return user;
  }

  it("pages by start_date and compares the window as dates on the cycle's start", async () => {
    const user = await threeCycles();
    const all = await readAllPages<Cycle>(svc, `/v1/users/${user}/menstrual-cycles`, key, 1);
    expect(all.map((c) => c.start_date)).toEqual(["2026-03-01", "2026-03-29", "2026-04-27"]);
    expect(new Set(all.map((c) => c.id)).size).toBe(3);
    expect((await cycles(user, "start=2026-03-29&end=2026-04-27")).map((c) => c.start_date)).toEqual(["2026-03-29"]);
    expect((await cycles(user, "start=2026-03-02")).map((c) => c.start_date)).toEqual(["2026-03-29", "2026-04-27"]);
    // A time stands for its date as written: a cycle starting that day is in.
    expect((await cycles(user, "start=2026-03-29T15:00:00Z&end=2026-04-27T23:00:00Z")).map((c) => c.start_date)).toEqual(["2026-03-29"]);
    expect((await cycles(user, "start=2026-03-29T01:00:00%2B05:00")).map((c) => c.start_date)).toEqual(["2026-03-29", "2026-04-27"]);
  });

  it.each([
    ["start=2026-03-02&end=2026-03-01", "end"],
    ["start=last-month", "start"],
    ["limit=1001", "limit"],
    ["limit=0", "limit"],
    ["cursor=nonsense", "cursor"],
  ])("answers 400 for %s", async (query, field) => {
    const user = await createUser(svc, key);
    expectBadRequest(await svc.call(`/v1/users/${user}/menstrual-cycles?${query}`, { key }), field);
  });

  it("keeps tenants apart and lets a user token with scope read see only its own user", async () => {
    const user = await threeCycles();
    const own = await expectReadAccessRules(svc, { key, otherKey }, user, (id) => `/v1/users/${id}/menstrual-cycles`);
    expect(own.body.data).toHaveLength(3);
  });
});
