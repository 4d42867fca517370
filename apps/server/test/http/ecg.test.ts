import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EcgRecordingRecord } from "@svc/core";
import type { TestService } from "../helpers/test-service.ts";
import { at, createUser, expectBadRequest, expectReadAccessRules, readAllPages, startWithTwoTenants, writeEcg } from "../helpers/records.ts";

let svc: TestService;
let key: string;
let otherKey: string;

beforeAll(async () => {
  ({ svc, key, otherKey } = await startWithTwoTenants());
});
afterAll(() => svc?.stop());

const VOLTAGES = Array.from({ length: 512 * 3 }, (_, i) => Math.round(Math.sin(i / 20) * 1000 * 1000) / 1000);
const t0 = Date.parse("2026-03-01T08:00:00Z");
const recording = (i: number, extra: Partial<EcgRecordingRecord> = {}): EcgRecordingRecord => ({
  start_date: new Date(t0 + i * 3_600_000),
  classification: "sinusRhythm",
  average_heart_rate: 64,
  sampling_frequency_hz: 512,
  lead_name: "Apple Watch Simulating Lead I",
  voltages: VOLTAGES,
  symptoms: ["Palpitations"],
  source: "apple",
  device: "Apple Watch",
  on_body: true,
  external_id: `ecg-${i}`,
  ...extra,
});

describe("GET /v1/users/{id}/ecg", () => {
  it("lists metadata only, by start_date, paged with no duplicates or gaps", async () => {
    const user = await createUser(svc, key);
    const records = Array.from({ length: 9 }, (_, i) => recording(i));
    records.push(recording(4, { external_id: "same-time" }));
    const summary = await writeEcg(svc, user, "apple_health", records);
    expect(summary).toMatchObject({ inserted: 10, rejected: 0, types: ["ecg_recording"] });

    const items = await readAllPages(svc, `/v1/users/${user}/ecg`, key, 3);
    expect(items).toHaveLength(10);
    expect(new Set(items.map((e) => e.id)).size).toBe(10);
    const order = items.map((e) => e.start_date);
    expect(order).toEqual([...order].sort());
    expect(items[0]).toEqual({
      id: expect.any(String),
      start_date: "2026-03-01T08:00:00.000Z",
      // 1536 samples at 512 Hz: 3 seconds.
      end_date: "2026-03-01T08:00:03.000Z",
      classification: "sinus_rhythm",
      average_heart_rate: 64,
      sampling_frequency_hz: 512,
      lead_name: "Apple Watch Simulating Lead I",
      sample_count: 1536,
      symptoms: ["palpitations"],
      source_name: null,
      external_id: "ecg-0",
      metadata: {},
      provider: "apple_health",
      source: "apple",
      device: "Apple Watch",
      ingested_at: expect.stringMatching(/Z$/),
    });
    expect(items[0]).not.toHaveProperty("voltages");
  });

  it("filters by a half-open window on start_date", async () => {
    const user = await createUser(svc, key);
    await writeEcg(svc, user, "apple_health", [0, 1, 2, 3].map((i) => recording(i)));
    const answer = await svc.call(`/v1/users/${user}/ecg?start=2026-03-01T09:00:00Z&end=2026-03-01T11:00:00Z`, { key });
    expect(answer.body.data.map((e: { external_id: string }) => e.external_id)).toEqual(["ecg-1", "ecg-2"]);
  });

  it.each([
    ["start=2026-03-02&end=2026-03-01", "end"],
    ["end=tomorrow", "end"],
    ["limit=1001", "limit"],
    ["cursor=nonsense", "cursor"],
  ])("answers 400 for %s", async (query, field) => {
    const user = await createUser(svc, key);
    expectBadRequest(await svc.call(`/v1/users/${user}/ecg?${query}`, { key }), field);
  });
});

describe("GET /v1/users/{id}/ecg/{ecg_id}", () => {
  it("answers one recording with its voltages in microvolts, in order", async () => {
    const user = await createUser(svc, key);
    await writeEcg(svc, user, "apple_health", [recording(0, { end_date: at("2026-03-01T08:00:30Z"), timezone: "Europe/Paris" })]);
    const [listed] = (await svc.call(`/v1/users/${user}/ecg`, { key })).body.data;
    const answer = await svc.call(`/v1/users/${user}/ecg/${listed.id}`, { key });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ ...listed, voltages: VOLTAGES });
    expect(answer.body).toMatchObject({ end_date: "2026-03-01T08:00:30.000Z", metadata: { timezone: "Europe/Paris" } });
  });

  it("stores a recording ingested twice once, and updates it when its voltages change", async () => {
    const user = await createUser(svc, key);
    expect(await writeEcg(svc, user, "apple_health", [recording(0)])).toMatchObject({ inserted: 1 });
    expect(await writeEcg(svc, user, "apple_health", [recording(0)])).toMatchObject({ inserted: 0, updated: 0, unchanged: 1, days: [] });
    const [before] = (await svc.call(`/v1/users/${user}/ecg`, { key })).body.data;
    const changed = [...VOLTAGES];
    changed[10] = 1234.5;
    expect(await writeEcg(svc, user, "apple_health", [recording(0, { voltages: changed })])).toMatchObject({ updated: 1, days: ["2026-03-01"] });
    const [listed] = (await svc.call(`/v1/users/${user}/ecg`, { key })).body.data;
    expect((await svc.call(`/v1/users/${user}/ecg/${listed.id}`, { key })).body.voltages[10]).toBe(1234.5);
    expect(listed.id).toBe(before.id);
    expect(Date.parse(listed.ingested_at)).toBeGreaterThan(Date.parse(before.ingested_at));
    expect((await svc.call(`/v1/users/${user}/ecg`, { key })).body.data).toHaveLength(1);
  });

  it("rejects recordings it cannot store without quoting a value", async () => {
    const user = await createUser(svc, key);
    const summary = await writeEcg(svc, user, "apple_health", [
      recording(0, { sampling_frequency_hz: 0 }),
      recording(1, { voltages: [1, Number.NaN] }),
      recording(2, { average_heart_rate: -64.25 }),
      recording(3),
    ]);
    expect(summary).toMatchObject({ inserted: 1, rejected: 3 });
    const rejected = await svc.db.rejectedRecord.findMany({ where: { userId: user } });
    expect(rejected.every((r) => r.recordKind === "ecg_recording" && !r.reason.includes("64.25"))).toBe(true);
  });

  it("is 404 for another user's or tenant's recording, 400 for an id that is not a uuid", async () => {
    const user = await createUser(svc, key);
    const other = await createUser(svc, key);
    await writeEcg(svc, user, "apple_health", [recording(0)]);
    const [listed] = (await svc.call(`/v1/users/${user}/ecg`, { key })).body.data;
    expect((await svc.call(`/v1/users/${other}/ecg/${listed.id}`, { key })).status).toBe(404);
    expect((await svc.call(`/v1/users/${user}/ecg/00000000-0000-4000-8000-000000000000`, { key })).status).toBe(404);
    expectBadRequest(await svc.call(`/v1/users/${user}/ecg/nope`, { key }), "ecg_id");

    await expectReadAccessRules(svc, { key, otherKey }, user, (id) => `/v1/users/${id}/ecg/${listed.id}`);
    await expectReadAccessRules(svc, { key, otherKey }, user, (id) => `/v1/users/${id}/ecg`);
  });
});
