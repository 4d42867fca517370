import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QuantitySampleRecord } from "@svc/core";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { at, createUser, expectBadRequest, writeSamples } from "../helpers/records.ts";

let svc: TestService;
let key: string;

beforeAll(async () => {
  svc = await startTestService();
  key = (await svc.createTenant()).api_key;
});
afterAll(() => svc?.stop());

const HOUR = 3_600_000;

/** One step_count sample of 1 step at ten past every UTC hour in [from, to). */
function hourlySteps(from: string, to: string, extra: Partial<QuantitySampleRecord> = {}): QuantitySampleRecord[] {
  const records: QuantitySampleRecord[] = [];
  for (let t = Date.parse(from) + 10 * 60_000; t < Date.parse(to); t += HOUR) {
    records.push({ type: "step_count", value: 1, start_date: new Date(t), end_date: new Date(t + 60_000), source: "garmin", device: "Forerunner", ...extra });
  }
  return records;
}

async function stats(user: string, query: string) {
  const answer = await svc.call(`/v1/users/${user}/samples/stats?type=step_count&${query}`, { key });
  expect(answer.status, answer.text).toBe(200);
  return answer.body as {
    start: string;
    end: string;
    tz: string;
    interval: string;
    view: string;
    truncated: boolean;
    buckets: Array<{ start: string; count: number; sum: number; avg: number; min: number; max: number; provider: string; source: string; device: string | null; unit: string }>;
  };
}

describe("GET /v1/users/{id}/samples/stats across DST", () => {
  it("America/New_York: the fall-back day has 25 hours, and 01:00 twice", async () => {
    const user = await createUser(svc, key);
    await writeSamples(svc, user, "garmin", hourlySteps("2026-11-01T00:00:00Z", "2026-11-03T00:00:00Z"));
    const hours = await stats(user, "interval=hour&tz=America/New_York&start=2026-11-01&end=2026-11-02");
    expect(hours.start).toBe("2026-11-01T00:00:00-04:00");
    expect(hours.end).toBe("2026-11-02T00:00:00-05:00");
    expect(hours.buckets).toHaveLength(25);
    expect(hours.buckets.filter((b) => b.start.startsWith("2026-11-01T01:00:00")).map((b) => b.start)).toEqual([
      "2026-11-01T01:00:00-04:00",
      "2026-11-01T01:00:00-05:00",
    ]);
    const days = await stats(user, "tz=America/New_York&start=2026-11-01&end=2026-11-03");
    expect(days.interval).toBe("day");
    expect(days.buckets.map((b) => [b.start, b.count])).toEqual([
      ["2026-11-01T00:00:00-04:00", 25],
      ["2026-11-02T00:00:00-05:00", 19], // the data ends at 00:00 UTC = 19:00 local
    ]);
  });

  it("America/New_York: the spring-forward day has 23 hours", async () => {
    const user = await createUser(svc, key);
    await writeSamples(svc, user, "garmin", hourlySteps("2026-03-07T00:00:00Z", "2026-03-11T00:00:00Z"));
    const days = await stats(user, "tz=America/New_York&start=2026-03-08&end=2026-03-10");
    expect(days.buckets.map((b) => [b.start, b.count, b.sum])).toEqual([
      ["2026-03-08T00:00:00-05:00", 23, 23],
      ["2026-03-09T00:00:00-04:00", 24, 24],
    ]);
    const hours = await stats(user, "interval=hour&tz=America/New_York&start=2026-03-08&end=2026-03-09");
    expect(hours.buckets.map((b) => b.start.slice(11))).not.toContain("02:00:00-05:00");
    expect(hours.buckets).toHaveLength(23);
  });

  it("Europe/Berlin: 23 hours in March, 25 in October", async () => {
    const user = await createUser(svc, key);
    await writeSamples(svc, user, "garmin", [
      ...hourlySteps("2026-03-28T00:00:00Z", "2026-03-31T00:00:00Z"),
      ...hourlySteps("2026-10-24T00:00:00Z", "2026-10-27T00:00:00Z"),
    ]);
    const march = await stats(user, "tz=Europe/Berlin&start=2026-03-29&end=2026-03-30");
    expect(march.buckets.map((b) => [b.start, b.count])).toEqual([["2026-03-29T00:00:00+01:00", 23]]);
    const october = await stats(user, "tz=Europe/Berlin&start=2026-10-25&end=2026-10-26");
    expect(october.buckets.map((b) => [b.start, b.count])).toEqual([["2026-10-25T00:00:00+02:00", 25]]);
  });

  it("Asia/Kolkata: hours start at half past the UTC hour and days at 18:30 UTC", async () => {
    const user = await createUser(svc, key);
    const sample = (iso: string): QuantitySampleRecord => ({ type: "step_count", value: 5, start_date: at(iso), source: "garmin" });
    await writeSamples(svc, user, "garmin", [sample("2026-03-01T00:29:00Z"), sample("2026-03-01T00:31:00Z"), sample("2026-03-01T18:29:00Z"), sample("2026-03-01T18:31:00Z")]);
    const hours = await stats(user, "interval=hour&tz=Asia/Kolkata&start=2026-03-01T00:00:00Z&end=2026-03-01T01:00:00Z");
    expect(hours.start).toBe("2026-03-01T05:00:00+05:30");
    expect(hours.end).toBe("2026-03-01T07:00:00+05:30");
    expect(hours.buckets.map((b) => [b.start, b.count])).toEqual([
      ["2026-03-01T05:00:00+05:30", 1],
      ["2026-03-01T06:00:00+05:30", 1],
    ]);
    const days = await stats(user, "tz=Asia/Kolkata&start=2026-03-01&end=2026-03-03");
    expect(days.buckets.map((b) => [b.start, b.count, b.sum])).toEqual([
      ["2026-03-01T00:00:00+05:30", 3, 15],
      ["2026-03-02T00:00:00+05:30", 1, 5],
    ]);
  });
});

describe("GET /v1/users/{id}/samples/stats", () => {
  it("keeps one series per provider, source, device and unit; merged leaves the phone out where the watch counted", async () => {
    const user = await createUser(svc, key);
    const phone = { provider: "apple_health", source: "apple", device: "iPhone", on_body: false };
    const watch = { provider: "apple_health", source: "apple", device: "Apple Watch", on_body: true };
    await writeSamples(svc, user, "apple_health", [
      ...hourlySteps("2026-03-01T08:00:00Z", "2026-03-01T12:00:00Z", phone),
      ...hourlySteps("2026-03-01T10:00:00Z", "2026-03-01T12:00:00Z", watch),
    ]);
    const all = await stats(user, "start=2026-03-01&end=2026-03-02&view=all");
    expect(all.buckets.map((b) => [b.device, b.count])).toEqual([
      ["Apple Watch", 2],
      ["iPhone", 4],
    ]);
    const merged = await stats(user, "start=2026-03-01&end=2026-03-02");
    expect(merged.view).toBe("merged");
    expect(merged.buckets.map((b) => [b.device, b.count])).toEqual([
      ["Apple Watch", 2],
      ["iPhone", 2],
    ]);
    const watchOnly = await stats(user, "start=2026-03-01&end=2026-03-02&provider=garmin");
    expect(watchOnly.buckets).toEqual([]);
  });

  it("computes count, sum, avg, min and max and widens the window to whole intervals", async () => {
    const user = await createUser(svc, key);
    const values = [3, 10, 5];
    await writeSamples(
      svc,
      user,
      "garmin",
      values.map((value, i) => ({ type: "step_count", value, start_date: new Date(Date.parse("2026-03-01T10:05:00Z") + i * 60_000), source: "garmin" })),
    );
    const answer = await stats(user, "interval=hour&start=2026-03-01T10:30:00Z&end=2026-03-01T10:31:00Z");
    expect(answer.start).toBe("2026-03-01T10:00:00+00:00");
    expect(answer.end).toBe("2026-03-01T11:00:00+00:00");
    expect(answer.buckets).toEqual([
      { start: "2026-03-01T10:00:00+00:00", provider: "garmin", source: "garmin", device: null, unit: "count", count: 3, sum: 18, avg: 6, min: 3, max: 10 },
    ]);
  });

  it("marks more than 50000 matching samples as truncated and counts the earliest 50000", async () => {
    const user = await createUser(svc, key);
    const start = Date.parse("2026-01-01T00:00:00Z");
    const records = Array.from({ length: 50_010 }, (_, i): QuantitySampleRecord => ({ type: "step_count", value: 1, start_date: new Date(start + i * 60_000), source: "garmin" }));
    await writeSamples(svc, user, "garmin", records);
    const answer = await stats(user, "start=2026-01-01&end=2026-03-01&view=all");
    expect(answer.truncated).toBe(true);
    expect(answer.buckets.reduce((sum, b) => sum + b.count, 0)).toBe(50_000);
    expect(answer.buckets.at(-1)!.start).toBe("2026-02-04T00:00:00+00:00"); // minute 50000 is on day 35
    const narrower = await stats(user, "start=2026-01-01&end=2026-01-02&view=all");
    expect(narrower.truncated).toBe(false);
  });

  it.each([
    ["start=2026-01-01", "end"],
    ["start=2026-01-02&end=2026-01-01", "end"],
    ["start=2026-01-01&end=2026-01-02&tz=Mars/Olympus", "tz"],
    ["start=2026-01-01&end=2026-01-02&interval=week", "interval"],
    ["start=2026-01-01&end=2053-05-20", "10000"],
    ["start=2026-01-01T00:00:00Z&end=2027-02-22T00:00:00Z&interval=hour", "10000"],
  ])("answers 400 for %s", async (query, detail) => {
    const user = await createUser(svc, key);
    expectBadRequest(await svc.call(`/v1/users/${user}/samples/stats?type=step_count&${query}`, { key }), detail);
  });

  it("accepts exactly 10000 intervals", async () => {
    const user = await createUser(svc, key);
    // 2026-01-01 + 10000 days = 2053-05-19.
    const answer = await stats(user, "start=2026-01-01&end=2053-05-19");
    expect(answer.buckets).toEqual([]);
  });
});
