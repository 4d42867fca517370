import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SELF_REPORT_KINDS, setTenantProviderSwitch } from "@svc/core";
import type { TestService } from "../helpers/test-service.ts";
import { createUser, expectBadRequest, mintToken, startWithTwoTenants } from "../helpers/records.ts";

let svc: TestService;
let key: string;
let otherKey: string;

beforeAll(async () => {
  ({ svc, key, otherKey } = await startWithTwoTenants());
});
afterAll(() => svc?.stop());

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

const report = (extra: object = {}) => ({ kind: "feeling", value: 4, start_at: "2026-03-01T08:00:00Z", ...extra });

function post(user: string, reports: unknown[], options: { key?: string; headers?: Record<string, string> } = {}) {
  return svc.call(`/v1/users/${user}/self-reports`, { key: options.key ?? key, body: { reports }, headers: options.headers });
}

const rows = (user: string) => svc.db.quantitySample.findMany({ where: { userId: user }, orderBy: { startDate: "asc" } });
const events = (user: string) => svc.db.outboxEvent.findMany({ where: { userId: user, type: "data.written" } });

describe("POST /v1/users/{id}/self-reports", () => {
  it("answers 202 with the stored reports in request order, readable as samples, with one data.written event; a resend is a duplicate", async () => {
    const user = await createUser(svc, key);
    const painId = "0b5e4a52-8f7c-4d7e-9a0e-5c1b2d3e4f60";
    const body = [
      report({ start_at: "2026-03-01T23:30:00Z", timezone: "Europe/Berlin" }),
      { id: painId, kind: "pain", value: 7, start_at: "2026-02-28T10:00:00+01:00", end_at: "2026-02-28T12:00:00+01:00" },
      { kind: "session_effort", value: 0, start_at: "2026-03-01T18:00:00Z" },
    ];
    const answer = await post(user, body);
    expect(answer.status, answer.text).toBe(202);
    expect(answer.body.duplicate).toBe(false);
    expect(answer.body.reports).toEqual([
      { id: expect.stringMatching(UUID), kind: "feeling", type: "reported_feeling", value: 4, start_at: "2026-03-01T23:30:00.000Z", end_at: "2026-03-01T23:30:00.000Z", timezone: "Europe/Berlin" },
      { id: painId, kind: "pain", type: "reported_pain", value: 7, start_at: "2026-02-28T09:00:00.000Z", end_at: "2026-02-28T11:00:00.000Z", timezone: null },
      { id: expect.stringMatching(UUID), kind: "session_effort", type: "reported_session_effort", value: 0, start_at: "2026-03-01T18:00:00.000Z", end_at: "2026-03-01T18:00:00.000Z", timezone: null },
    ]);

    const samples = await svc.call(`/v1/users/${user}/samples?type=reported_feeling`, { key });
    expect(samples.status, samples.text).toBe(200);
    expect(samples.body.data).toHaveLength(1);
    expect(samples.body.data[0]).toMatchObject({
      value: 4,
      unit: "score",
      external_id: answer.body.reports[0].id,
      was_user_entered: true,
      provider: "self_report",
      source: "self_report",
      metadata: { timezone: "Europe/Berlin" },
    });

    const written = await events(user);
    expect(written).toHaveLength(1);
    expect(written[0]!.data).toEqual({
      user_id: user,
      external_ref: null,
      provider: "self_report",
      records: { quantity_samples: 3 },
      types: ["reported_feeling", "reported_pain", "reported_session_effort"],
      // The feeling at 23:30 UTC is on 2 March in Berlin.
      first_day: "2026-02-28",
      last_day: "2026-03-02",
    });

    const again = await post(user, body);
    expect(again.status).toBe(202);
    expect(again.body).toEqual({ reports: answer.body.reports, duplicate: true });
    expect(await rows(user)).toHaveLength(3);
    expect(await events(user)).toHaveLength(1);
  });

  it("replaces a report sent again with its id, also when start_at moved; without an id, one report per kind and times", async () => {
    const user = await createUser(svc, key);
    const id = "5f0c6d1e-2a3b-4c5d-8e9f-0a1b2c3d4e5f";
    expect((await post(user, [report({ id, value: 2 })])).status).toBe(202);
    const moved = await post(user, [report({ id: id.toUpperCase(), value: 5, start_at: "2026-03-01T09:30:00Z" })]);
    expect(moved.status, moved.text).toBe(202);
    expect(moved.body).toMatchObject({ duplicate: false, reports: [{ id, value: 5, start_at: "2026-03-01T09:30:00.000Z" }] });
    const stored = await rows(user);
    expect(stored.map((row) => [row.value, row.startDate.toISOString()])).toEqual([[5, "2026-03-01T09:30:00.000Z"]]);
    expect(await events(user)).toHaveLength(2);

    const first = await post(user, [report({ kind: "mood", value: 3 })]);
    const corrected = await post(user, [report({ kind: "mood", value: 4 })]);
    expect(corrected.body.reports[0].id).toBe(first.body.reports[0].id);
    expect(corrected.body.duplicate).toBe(false);
    const moods = await svc.db.quantitySample.findMany({ where: { userId: user, type: "reported_mood" } });
    expect(moods.map((row) => row.value)).toEqual([4]);
  });

  it("answers 409 for a stored report's id with another kind, and keeps nothing", async () => {
    const user = await createUser(svc, key);
    const id = "7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d";
    expect((await post(user, [report({ id })])).status).toBe(202);
    const answer = await post(user, [report({ kind: "energy", value: 2 }), report({ id, kind: "mood" })]);
    expect(answer.status).toBe(409);
    expect(answer.body.detail).toContain("reports.1.id");
    expect((await rows(user)).map((row) => row.type)).toEqual(["reported_feeling"]);
  });

  it("replays an Idempotency-Key's first answer and refuses the key with another body (422)", async () => {
    const user = await createUser(svc, key);
    const headers = { "idempotency-key": "self-report-1" };
    const first = await post(user, [report()], { headers });
    expect(first.status).toBe(202);
    const replay = await post(user, [report()], { headers });
    expect(replay.status).toBe(202);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    expect((await post(user, [report({ value: 1 })], { headers })).status).toBe(422);
    expect((await rows(user)).map((row) => row.value)).toEqual([4]);
  });

  it("takes 1 to 100 reports", async () => {
    const user = await createUser(svc, key);
    const many = (n: number) => Array.from({ length: n }, (_, i) => report({ start_at: new Date(Date.UTC(2026, 2, 1) + i * 60_000).toISOString() }));
    expectBadRequest(await post(user, []), "reports");
    expectBadRequest(await post(user, many(101)), "reports");
    const hundred = await post(user, many(100));
    expect(hundred.status, hundred.text).toBe(202);
    expect(hundred.body.reports).toHaveLength(100);
    expect(await rows(user)).toHaveLength(100);
  });

  it("takes each kind's scale bounds and refuses values off the scale (400 naming the field and range, never the value)", async () => {
    const user = await createUser(svc, key);
    const kinds = Object.values(SELF_REPORT_KINDS);
    const bounds = kinds.flatMap((k) => [report({ kind: k.kind, value: k.min }), report({ kind: k.kind, value: k.max, start_at: "2026-03-01T09:00:00Z" })]);
    const accepted = await post(user, bounds);
    expect(accepted.status, accepted.text).toBe(202);
    expect(accepted.body.reports.map((r: { type: string }) => r.type)).toEqual(kinds.flatMap((k) => [`reported_${k.kind}`, `reported_${k.kind}`]));

    const valid = [report(), report({ kind: "mood" }), report({ kind: "stress" })];
    for (const k of kinds) {
      for (const value of [k.min - 1, k.max + 1]) {
        const answer = await post(user, [...valid, report({ kind: k.kind, value, start_at: "2026-03-02T08:00:00Z" })]);
        expectBadRequest(answer, "reports.3.value");
        expect(answer.body.detail).toContain(`${k.min} to ${k.max}`);
        expect(answer.body.detail).not.toContain(String(value));
      }
    }
    expectBadRequest(await post(user, [report({ value: 2.5 })]), "reports.0.value");
    expect(await rows(user)).toHaveLength(kinds.length * 2);
  });

  it.each([
    ["an unknown kind", report({ kind: "happiness" }), "reports.0.kind"],
    ["end_at before start_at", report({ end_at: "2026-03-01T07:59:59Z" }), "reports.0.end_at"],
    ["an unknown time zone", report({ timezone: "Mars/Olympus_Mons" }), "reports.0.timezone"],
    ["a start_at that is not a date-time", report({ start_at: "yesterday" }), "reports.0.start_at"],
    ["an id that is not a uuid", report({ id: "r-1" }), "reports.0.id"],
    ["an unknown field", report({ note: "x" }), "reports.0"],
  ])("answers 400 for %s", async (_, item, field) => {
    const user = await createUser(svc, key);
    expectBadRequest(await post(user, [item]), field);
  });

  it("answers 400 for the same report twice in one request", async () => {
    const user = await createUser(svc, key);
    expectBadRequest(await post(user, [report(), report({ value: 2 })]), "reports.1");
    expect(await rows(user)).toHaveLength(0);
  });

  it("takes a tenant key or the user's own token with scope upload", async () => {
    const user = await createUser(svc, key);
    const other = await createUser(svc, key);
    const uploader = await mintToken(svc, key, user, ["upload"]);
    const own = await post(user, [report()], { key: uploader });
    expect(own.status, own.text).toBe(202);
    expect((await post(other, [report()], { key: uploader })).status).toBe(404);
    const reader = await mintToken(svc, key, user, ["read"]);
    expect((await post(user, [report()], { key: reader })).status).toBe(403);
    expect((await post(user, [report()], { key: otherKey })).status).toBe(404);
    expect((await svc.call(`/v1/users/${user}/self-reports`, { body: { reports: [report()] } })).status).toBe(401);
    expect(await rows(other)).toHaveLength(0);
  });

  it("answers 404 for a user being deleted", async () => {
    const user = await createUser(svc, key);
    expect((await svc.call(`/v1/users/${user}`, { key, method: "DELETE" })).status).toBe(202);
    expect((await post(user, [report()])).status).toBe(404);
  });

  it("answers 409 and keeps nothing while the user's self reports are being erased", async () => {
    const user = await createUser(svc, key);
    const { tenantId } = await svc.db.user.findUniqueOrThrow({ where: { id: user } });
    await svc.db.deletionJob.create({ data: { tenantId, userId: user, provider: "bluetooth", status: "running" } });
    expect((await post(user, [report({ kind: "pain", value: 1 })])).status).toBe(202);
    await svc.db.deletionJob.create({ data: { tenantId, userId: user, provider: "self_report", status: "pending" } });
    const answer = await post(user, [report()]);
    expect(answer.status).toBe(409);
    expect((await rows(user)).map((row) => row.type)).toEqual(["reported_pain"]);
    expect(await events(user)).toHaveLength(1);
  });

  it("answers 403 and keeps nothing while the provider self_report is switched off for the tenant", async () => {
    const tenant = await svc.createTenant();
    const user = await createUser(svc, tenant.api_key);
    await setTenantProviderSwitch(svc.db, tenant.tenant_id, "self_report", false);
    const refused = await post(user, [report()], { key: tenant.api_key });
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain("switched off");
    expect(await rows(user)).toHaveLength(0);
    await setTenantProviderSwitch(svc.db, tenant.tenant_id, "self_report", true);
    expect((await post(user, [report()], { key: tenant.api_key })).status).toBe(202);
  });
});
