import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { RESULT_BUDGET_BYTES } from "@svc/mcp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestService } from "../helpers/test-service.ts";
import { createUser, mintToken, readAllPages, startWithTwoTenants, writeDaily, writeSamples, writeSleep, writeWorkoutRecords } from "../helpers/records.ts";
import { callTool, connectHttp, withStream, type ToolAnswer } from "./mcp-client.ts";

/*
 * What an assistant receives: compact answers within the size budget, with an outputSchema the
 * structured content meets, newest-first reads and default windows. The user wears a watch and
 * a chest strap that both record heart rate every minute (at the same instants) for 26 hours
 * up to now, and has 30 days of sleep, workouts with GPS routes and daily summaries.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

let svc: TestService;
let key: string;
let user: string;
let tenantClient: Client;
let readerClient: Client;
let workoutId: string;
const now = Math.floor(Date.now() / MINUTE) * MINUTE;
const firstMinute = now - 26 * HOUR;
const minutes = Array.from({ length: 26 * 60 }, (_, i) => firstMinute + i * MINUTE);
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

beforeAll(async () => {
  ({ svc, key } = await startWithTwoTenants());
  user = await createUser(svc, key);
  const heartRate = (device: string, source: string, shift: number) =>
    minutes.map((t, i) => ({
      type: "heart_rate",
      value: 60 + ((i * 7 + shift) % 40),
      start_date: new Date(t),
      source,
      device,
      on_body: true,
      source_name: `${device} app`,
      timezone: "Europe/Berlin",
    }));
  await writeSamples(svc, user, "apple_health", heartRate("Apple Watch", "apple", 0));
  await writeSamples(svc, user, "polar", heartRate("H10", "polar", 3));
  // Steps over 10-minute intervals with provider metadata: wider records than heart rate.
  await writeSamples(
    svc,
    user,
    "apple_health",
    Array.from({ length: 1200 }, (_, i) => ({
      type: "step_count",
      value: 100 + (i % 50),
      start_date: new Date(Date.parse("2026-01-01T00:00:00Z") + i * 10 * MINUTE),
      end_date: new Date(Date.parse("2026-01-01T00:10:00Z") + i * 10 * MINUTE),
      source: "apple",
      device: "iPhone",
      metadata: { HKMetadataKeyWasUserEntered: false, motion: i % 3 },
    })),
  );
  const nights = Array.from({ length: 30 }, (_, i) => dayStart(now) - (30 - i) * DAY);
  await writeSleep(
    svc,
    user,
    "oura",
    nights.map((midnight) => ({
      bedtime_start: new Date(midnight - 2 * HOUR),
      bedtime_end: new Date(midnight + 6 * HOUR),
      timezone: "Europe/Berlin",
      efficiency: 0.91,
      score: 84,
      average_hrv: 48,
      source: "oura",
      device: "Oura Ring 4",
      on_body: true,
      phases: [
        { stage: "light", start_date: new Date(midnight - 2 * HOUR), end_date: new Date(midnight + 2 * HOUR) },
        { stage: "deep", start_date: new Date(midnight + 2 * HOUR), end_date: new Date(midnight + 6 * HOUR) },
      ],
    })),
  );
  await writeWorkoutRecords(
    svc,
    user,
    "garmin",
    nights.slice(-10).map((midnight) => ({
      activity_type: "running",
      start_date: new Date(midnight + 17 * HOUR),
      end_date: new Date(midnight + 18 * HOUR),
      distance_meters: 10_000,
      source: "garmin",
      device: "Forerunner 965",
      on_body: true,
      route: Array.from({ length: 600 }, (_, i) => ({ timestamp: new Date(midnight + 17 * HOUR + i * 6000), latitude: 52.5 + i * 1e-4, longitude: 13.4, altitude_meters: 40 })),
    })),
  );
  for (const provider of ["garmin", "oura"]) {
    await writeDaily(
      svc,
      user,
      provider,
      nights.map((midnight, i) => ({ date: dateOf(midnight), steps: 8000 + i, resting_heart_rate: 52, score: provider === "oura" ? 80 : null })),
    );
  }
  tenantClient = await connectHttp(svc.url, key);
  readerClient = await connectHttp(svc.url, await mintToken(svc, key, user, ["read"]));
  workoutId = (await callTool(tenantClient, "get_workouts", { user_id: user, order: "newest_first", limit: 1 })).records[0].id;
});

afterAll(async () => {
  await tenantClient?.close();
  await readerClient?.close();
  await svc?.stop();
});

function dayStart(ms: number) {
  return Math.floor(ms / DAY) * DAY;
}

/** Calls a tool; returns its answer and the bytes of its JSON text. */
async function sized(name: string, args: Record<string, unknown>): Promise<{ answer: ToolAnswer; bytes: number }> {
  const result = await tenantClient.callTool({ name, arguments: args });
  const text = (result.content as Array<{ text: string }>)[0]!.text;
  expect(result.isError ?? false, text).toBe(false);
  return { answer: result.structuredContent as ToolAnswer, bytes: Buffer.byteLength(text) };
}

/** The arguments of each tool's default call: only what it requires. */
const defaultCalls = (): Array<[string, Record<string, unknown>]> => [
  ["list_users", {}],
  ["list_quantity_types", {}],
  ["get_samples", { user_id: user, type: "heart_rate" }],
  ["get_category_samples", { user_id: user }],
  ["get_sleep", { user_id: user }],
  ["get_workouts", { user_id: user }],
  ["get_workout_route", { user_id: user, workout_id: workoutId }],
  ["get_nutrition", { user_id: user }],
  ["get_daily", { user_id: user }],
  ["get_rr_intervals", { user_id: user }],
  ["get_hrv", { user_id: user }],
  ["get_menstrual_cycles", { user_id: user }],
  ["get_ecg_recordings", { user_id: user }],
  ["get_sample_stats", { user_id: user, type: "heart_rate", start: dateOf(now - 30 * DAY), end: dateOf(now + DAY), interval: "hour", view: "all" }],
  ["get_coverage", { user_id: user }],
  ["get_tags", { user_id: user }],
  ["list_connections", { user_id: user }],
  ["list_webhooks", {}],
];

describe("answer size", () => {
  it("keeps every tool's default answer under the budget, its structuredContent valid against its outputSchema", async () => {
    const { tools } = await tenantClient.listTools();
    expect(defaultCalls().map(([name]) => name).sort()).toEqual(tools.map((tool) => tool.name).sort());
    const validator = new AjvJsonSchemaValidator();
    for (const [name, args] of defaultCalls()) {
      const { answer, bytes } = await sized(name, args);
      expect(bytes, name).toBeLessThanOrEqual(RESULT_BUDGET_BYTES);
      const outputSchema = tools.find((tool) => tool.name === name)!.outputSchema as Parameters<typeof validator.getValidator>[0];
      const check = validator.getValidator(outputSchema)(answer);
      expect(check.errorMessage, name).toBeUndefined();
    }
  });

  it("reads the last 24 hours of samples by default, compactly: provenance once per stream", async () => {
    const { answer } = await sized("get_samples", { user_id: user, type: "heart_rate" });
    expect(Date.parse(answer.start)).toBeGreaterThanOrEqual(Date.now() - DAY - MINUTE);
    expect(answer.records.length).toBe(100);
    expect(Date.parse(answer.records[0].start_date)).toBeGreaterThanOrEqual(Date.parse(answer.start));
    expect(answer.streams).toHaveLength(1);
    expect(answer.streams![0]).toMatchObject({ type: "heart_rate", unit: "count/min", timezone: "Europe/Berlin", outranked: [{ records: 100 }] });
    expect(Object.keys(answer.records[0]).sort()).toEqual(["start_date", "value"]);
  });

  it("answers get_samples with limit 1000 (16 hours of two streams) within the budget, a fraction of the REST page", async () => {
    const start = new Date(firstMinute).toISOString();
    const { answer, bytes } = await sized("get_samples", { user_id: user, type: "heart_rate", start, limit: 1000, view: "all" });
    const rest = await svc.call(`/v1/users/${user}/samples?type=heart_rate&view=all&limit=1000&start=${encodeURIComponent(start)}`, { key });
    expect(bytes).toBeLessThanOrEqual(RESULT_BUDGET_BYTES);
    expect(bytes).toBeLessThan(Buffer.byteLength(rest.text) / 5);
    expect(answer.streams).toHaveLength(2);
    expect(answer.records.map((record) => withStream(answer, record))).toEqual(
      rest.body.data.slice(0, answer.records.length).map((sample: any) => ({
        type: "heart_rate",
        unit: "count/min",
        provider: sample.provider,
        source: sample.source,
        device: sample.device,
        source_name: sample.source_name,
        is_primary_source: sample.is_primary_source,
        was_user_entered: false,
        timezone: "Europe/Berlin",
        last_ingested_at: expect.any(String),
        start_date: sample.start_date,
        value: sample.value,
      })),
    );
  });

  it("cuts a page at the budget, tells so, and pages on from there with nothing lost", async () => {
    const args = { user_id: user, type: "step_count", start: "2026-01-01", end: "2026-02-01", limit: 1000 };
    const { answer, bytes } = await sized("get_samples", args);
    expect(bytes).toBeLessThanOrEqual(RESULT_BUDGET_BYTES);
    expect(answer.records.length).toBeLessThan(1000);
    expect(answer.records.length).toBeGreaterThan(300);
    expect(answer).toMatchObject({ truncated: true, next_cursor: expect.any(String), hint: expect.stringMatching(/size budget .* get_sample_stats/) });
    const records = [...answer.records];
    for (let cursor = answer.next_cursor; cursor !== null; ) {
      const next = (await sized("get_samples", { ...args, cursor })).answer;
      records.push(...next.records);
      cursor = next.next_cursor;
    }
    const rest = await readAllPages(svc, `/v1/users/${user}/samples?type=step_count&start=2026-01-01&end=2026-02-01`, key, 1000);
    expect(records).toEqual(
      rest.map((sample) => ({
        start_date: sample.start_date,
        end_date: sample.end_date,
        value: sample.value,
        ...(Object.keys(sample.metadata).length > 0 && { metadata: sample.metadata }),
      })),
    );
  });
});

describe("newest first", () => {
  it("gives the latest readings first and pages back through every record, also those sharing an instant", async () => {
    const start = new Date(now - 2 * HOUR).toISOString();
    const latest = await callTool(tenantClient, "get_samples", { user_id: user, type: "heart_rate", order: "newest_first", limit: 3 });
    expect(latest.records.map((record) => record.start_date)).toEqual(minutes.slice(-3).reverse().map((t) => new Date(t).toISOString()));

    const rest = await readAllPages(svc, `/v1/users/${user}/samples?type=heart_rate&view=all&start=${encodeURIComponent(start)}`, key, 1000);
    expect(rest).toHaveLength(240);
    const records: any[] = [];
    let cursor: string | null | undefined;
    do {
      // 7 a page: pages end between the two streams' samples of one minute.
      const page = await callTool(tenantClient, "get_samples", { user_id: user, type: "heart_rate", view: "all", start, order: "newest_first", limit: 7, ...(cursor && { cursor }) });
      expect(page.records.length).toBeLessThanOrEqual(7);
      records.push(...page.records.map((record) => withStream(page, record)));
      cursor = page.next_cursor;
    } while (cursor !== null);
    expect(records.map((record) => [record.start_date, record.provider, record.value])).toEqual(
      rest.reverse().map((sample) => [sample.start_date, sample.provider, sample.value]),
    );
  });

  it("gives last night's sleep, the last workout and the latest day; a user token reads its own the same way", async () => {
    const sleep = await callTool(readerClient, "get_sleep", { order: "newest_first", limit: 1 });
    expect(sleep.records).toHaveLength(1);
    expect(sleep.records[0]).toMatchObject({ bedtime_end: new Date(dayStart(now) - DAY + 6 * HOUR).toISOString(), efficiency: 0.91, score: 84, average_hrv: 48 });
    expect(sleep).toMatchObject({ truncated: true, next_cursor: expect.any(String) });
    const before = await callTool(readerClient, "get_sleep", { order: "newest_first", limit: 1, cursor: sleep.next_cursor });
    expect(before.records[0].bedtime_end).toBe(new Date(dayStart(now) - 2 * DAY + 6 * HOUR).toISOString());

    const workout = await callTool(readerClient, "get_workouts", { order: "newest_first", limit: 1 });
    expect(workout.records[0].start_date).toBe(new Date(dayStart(now) - DAY + 17 * HOUR).toISOString());
    const daily = await callTool(readerClient, "get_daily", { order: "newest_first", limit: 2, view: "all" });
    expect(daily.records.map((record) => record.date)).toEqual([dateOf(now - DAY), dateOf(now - DAY)]);
    expect(await callTool(readerClient, "get_daily", { order: "newest_first", limit: 2, view: "all", cursor: daily.next_cursor })).toMatchObject({
      records: [{ date: dateOf(now - 2 * DAY) }, { date: dateOf(now - 2 * DAY) }],
    });
  });

  it("refuses a cursor of the other order", async () => {
    const oldest = await callTool(tenantClient, "get_samples", { user_id: user, type: "heart_rate", limit: 1 });
    const result = await tenantClient.callTool({ name: "get_samples", arguments: { user_id: user, type: "heart_rate", order: "newest_first", cursor: oldest.next_cursor } });
    expect(result.isError).toBe(true);
    expect((result.content as Array<{ text: string }>)[0]!.text).toMatch(/^Bad Request: cursor is not valid/);
  });
});

describe("units in the schemas", () => {
  it("describes scales and units in the output schema and the description", async () => {
    const { tools } = await readerClient.listTools();
    const sleep = tools.find((tool) => tool.name === "get_sleep")!;
    const session = (sleep.outputSchema!.properties!.records as any).items.anyOf[0].properties;
    expect(session.efficiency.description).toMatch(/0 to 1/);
    expect(session.score.description).toMatch(/0 to 100/);
    expect(session.average_hrv.description).toMatch(/RMSSD.*ms/);
    expect(sleep.description).toMatch(/efficiency is a fraction 0 to 1/);
    const samples = tools.find((tool) => tool.name === "get_samples")!;
    expect((samples.outputSchema!.properties!.streams as any).items.properties.unit.description).toMatch(/storage unit/);
  });
});
