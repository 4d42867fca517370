// DELETE /v1/admin/tenants/{tenant_id} over real HTTP with the worker running: a tenant with
// rows in every table of the database (and raw files, webhook deliveries to a real receiver)
// is deleted to the last row, another tenant with the same rows is untouched, the deleted
// tenant's keys and tokens stop at once, its webhooks receive nothing more, and the deletion
// stays readable. Then refusals, an upload in flight, and an instance left without tenants.
import { existsSync } from "node:fs";
import path from "node:path";
import { createAdminKey, createTenantApiKey, refreshMergedSampleRollups, type CreatedTenant, type DeliverySchedule } from "@svc/core";
import type { JobQueue } from "@svc/jobs";
import { replies, startWebhookReceiver, waitUntil, type WebhookReceiver } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  at,
  createUser,
  mintToken,
  writeCategory,
  writeDaily,
  writeEcg,
  writeHeartbeats,
  writeNutrition,
  writeSamples,
  writeSleep,
  writeWorkoutRecords,
} from "../helpers/records.ts";
import { heartRateSampleLine, startSlowUpload } from "../helpers/slow-upload.ts";
import { tenantRowCounts, tenantScope, type TenantScope } from "../helpers/tenant-rows.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { heartRateLine, uploadAndProcess } from "../helpers/uploads.ts";
import { emit, insertEndpoint, sleep, startTestQueue, TEST_ENCRYPTION_KEY, testSealer } from "../helpers/webhooks.ts";

const SECOND = 1000;
const HOUR = 3_600_000;
/** Failed deliveries are retried every 1.5 s: a retry due after the DELETE would reach the receiver quickly. */
const schedule: DeliverySchedule = {
  retryDelaysMs: Array.from({ length: 7 }, () => 1.5 * SECOND),
  timeoutMs: 2 * SECOND,
  disableAfterMs: HOUR,
  keepFinishedMs: 24 * HOUR,
  historyKept: 20,
  waitingReplaysMax: 10,
};

let svc: TestService;
let jobs: JobQueue;
let adminKey: string;
const receivers: WebhookReceiver[] = [];

beforeAll(async () => {
  svc = await startTestService({ SVC_WEBHOOK_ALLOW_PRIVATE: "true", SVC_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY }, { webhookSchedule: schedule });
  jobs = await startTestQueue(svc);
  adminKey = (await createAdminKey(svc.db, "tenant deletion test")).admin_key;
});
afterAll(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  await jobs?.stop();
  await svc?.stop();
});

const admin = (path: string, method = "GET", body?: unknown) => svc.call(path, { key: adminKey, method, body });

/** Polls the deletion until it is done or failed; its last answer. */
async function deletionEnded(jobId: string, target = svc, key = adminKey) {
  for (let i = 0; i < 300; i++) {
    const job = await target.call(`/v1/admin/tenant-deletions/${jobId}`, { key });
    expect(job.status, job.text).toBe(200);
    if (job.body.status === "done" || job.body.status === "failed") return job.body;
    await sleep(100);
  }
  throw new Error("the tenant deletion did not end");
}

interface Populated {
  tenant: CreatedTenant;
  users: string[];
  readToken: string;
  receiver: WebhookReceiver;
}

/** A tenant with rows in every table a tenant has rows in, raw files, and a webhook endpoint at a real receiver. */
async function populate(name: string): Promise<Populated> {
  const tenant = await svc.createTenant(name);
  const key = tenant.api_key;
  const tenantId = tenant.tenant_id;
  await createTenantApiKey(svc.db, tenantId, "second");
  const first = await svc.call("/v1/users", { key, body: { external_ref: `${name}-1` }, headers: { "idempotency-key": `${name}-create-1` } });
  expect(first.status, first.text).toBe(201);
  const user = first.body.id as string;
  const other = await createUser(svc, key);
  const readToken = await mintToken(svc, key, user, ["read"]);
  const uploadToken = await mintToken(svc, key, user, ["upload"]);

  // Records through the API (raw file, samples, streams) and the ETL's own writers.
  await uploadAndProcess(svc, uploadToken, "bluetooth", [heartRateLine(61, "2026-03-01T10:00:00Z"), heartRateLine(62, "2026-03-01T10:00:01Z")]);
  await writeSamples(svc, user, "garmin", [{ type: "heart_rate", value: 60, unit: "count/min", start_date: at("2026-03-01T08:00:00Z"), source: "garmin", device: "Forerunner" }]);
  await writeCategory(svc, user, "apple_health", [
    { type: "menstrual_flow", value: "medium", start_date: at("2026-03-01T00:00:00Z"), end_date: at("2026-03-02T00:00:00Z"), source: "apple" },
  ]);
  await writeSleep(svc, user, "oura", [
    {
      bedtime_start: at("2026-03-01T22:00:00Z"),
      bedtime_end: at("2026-03-02T06:00:00Z"),
      source: "oura",
      phases: [{ stage: "deep", start_date: at("2026-03-01T23:00:00Z"), end_date: at("2026-03-02T00:00:00Z") }],
    },
  ]);
  await writeWorkoutRecords(svc, user, "garmin", [
    {
      activity_type: "running",
      start_date: at("2026-03-01T08:00:00Z"),
      end_date: at("2026-03-01T09:00:00Z"),
      source: "garmin",
      route: [
        { timestamp: at("2026-03-01T08:00:10Z"), latitude: 52.5, longitude: 13.4 },
        { timestamp: at("2026-03-01T08:00:20Z"), latitude: 52.5001, longitude: 13.4001 },
      ],
    },
  ]);
  await writeNutrition(svc, user, "myfitnesspal", [{ start_date: at("2026-03-01T12:00:00Z"), meal_type: "lunch", name: "soup", energy_kcal: 300, source: "myfitnesspal", external_id: "m-1" }]);
  await writeDaily(svc, user, "oura", [{ date: "2026-03-01", steps: 9000 }]);
  await writeHeartbeats(svc, user, "polar", [
    { start_date: at("2026-03-01T08:00:00Z"), rr_intervals: [800, 820, 780, 850, 810].map((interval_ms) => ({ interval_ms })), source: "polar", device: "H10", on_body: true },
  ]);
  await writeEcg(svc, user, "apple_health", [{ start_date: at("2026-03-01T08:00:00Z"), sampling_frequency_hz: 512, voltages: [1, 2, 3], source: "apple" }]);
  await svc.db.rejectedRecord.create({ data: { userId: user, provider: "garmin", recordKind: "quantity_sample", reason: "value out of range" } });
  await svc.db.providerTombstone.create({ data: { userId: user, provider: "oura", recordKind: "sleep_session", dedupeKey: "gone-1" } });

  // The tenant's other objects through its routes: a tag, a self report, a share, a source order, a consent revocation, a connect link.
  const calls: Array<[string, string, unknown]> = [
    [`/v1/users/${user}/tags`, "POST", { kind: "custom", label: "race", start_at: "2026-03-01T00:00:00Z" }],
    [`/v1/users/${user}/self-reports`, "POST", { reports: [{ kind: "feeling", value: 4, start_at: "2026-03-01T08:00:00Z" }] }],
    [`/v1/users/${user}/shares`, "POST", { label: "doctor", categories: ["heart"], start: "2026-02-25T00:00:00Z", end: "2026-03-05T00:00:00Z", expires_at: new Date(Date.now() + 86_400_000).toISOString() }],
    [`/v1/users/${user}/source-orders/heart_rate`, "PUT", { sources: ["garmin"] }],
    [`/v1/users/${other}/consents/oura/revoke`, "POST", { categories: ["sleep"] }],
    [`/v1/users/${user}/connect-sessions`, "POST", {}],
    [`/v1/users/${other}/data/garmin`, "DELETE", undefined],
  ];
  for (const [route, method, body] of calls) {
    const answer = await svc.call(route, { key, method, body });
    expect(answer.status, `${method} ${route}: ${answer.text}`).toBeLessThan(300);
  }

  // A provider connection with its sync log, push subscription, consent state and quota bucket.
  const connection = await svc.db.connection.create({
    data: {
      userId: user,
      provider: "oura",
      keySource: "instance",
      applicationId: "instance",
      providerUserId: `${name}-oura`,
      sealedTokens: testSealer().seal(JSON.stringify({ access_token: "t", refresh_token: "r", token_type: "bearer" })),
      nextPullAt: new Date(Date.now() + 86_400_000),
    },
  });
  await svc.db.syncRun.create({ data: { connectionId: connection.id, userId: user, provider: "oura", trigger: "manual", status: "succeeded", windowStart: at("2026-03-01T00:00:00Z"), windowEnd: at("2026-03-02T00:00:00Z") } });
  await svc.db.pushSubscription.create({ data: { connectionId: connection.id, userId: user, provider: "oura", externalId: `${name}-sub` } });
  await svc.db.consentState.create({
    data: { stateHash: `${name}-state`, userId: user, provider: "oura", sealedVerifier: "x", keySource: "instance", applicationId: "instance", expiresAt: new Date(Date.now() + 600_000) },
  });
  await svc.db.providerQuota.create({ data: { provider: "oura", bucket: `user:${connection.id}`, windowStart: new Date(), used: 3 } });

  // Provider switch and own keys (by an admin), webhook endpoints (one the tenant made and turned off, one at a receiver).
  expect((await admin(`/v1/admin/tenants/${tenantId}/providers/oura`, "PATCH", { enabled: true })).status).toBe(200);
  await svc.db.tenantProviderKeys.create({ data: { tenantId, provider: "oura", sealedKeys: testSealer().seal("{}"), applicationId: `tenant:${name}` } });
  const own = await svc.call("/v1/webhooks", { key, body: { url: `https://hooks.example.com/${name}` } });
  expect(own.status, own.text).toBe(201);
  expect((await svc.call(`/v1/webhooks/${own.body.id}`, { key, method: "PATCH", body: { enabled: false } })).status).toBe(200);
  // The erasure and revocation jobs have ended (their events went to no endpoint yet).
  await waitUntil(async () => (await svc.db.deletionJob.count({ where: { tenantId, status: { in: ["pending", "running"] } } })) === 0, 20_000, "the setup's deletion jobs");
  // A completed FHIR Bulk Data export of every user (its files under fhir-exports/<tenant id>/).
  const kickOff = await svc.call("/v1/fhir/Patient/$export", { key });
  expect(kickOff.status, kickOff.text).toBe(202);
  const exportId = kickOff.headers.get("content-location")!.split("/").pop()!;
  await waitUntil(async () => (await svc.call(`/v1/fhir/bulk-status/${exportId}`, { key })).status === 200, 60_000, "the tenant's export");
  const receiver = await startWebhookReceiver(replies.ok());
  receivers.push(receiver);
  await insertEndpoint(svc, tenantId, receiver.url);
  await emit(svc, jobs, { tenantId, type: "webhook.test", data: { endpoint_id: own.body.id } });
  await receiver.waitFor((requests) => requests.length >= 1);
  // The merged rollups as their job computes them, now: the job would otherwise change the
  // tenant's rows at some moment of the test.
  const stale = await svc.db.$queryRaw<Array<{ user_id: string; type: string }>>`
    SELECT user_id::text, type FROM quantity_sample_merged_dirty WHERE user_id = ANY(${[user, other]}::uuid[])`;
  for (const { user_id, type } of stale) await refreshMergedSampleRollups(svc.db, user_id, type);
  return { tenant, users: [user, other], readToken, receiver };
}

const rawFolder = (userId: string) => path.join(svc.dataDir, "raw", userId);

describe("DELETE /v1/admin/tenants/{tenant_id}", () => {
  let doomed: Populated;
  let kept: Populated;
  let doomedScope: TenantScope;
  let keptScope: TenantScope;
  let keptBefore: Record<string, number>;
  let doomedExportFiles: string[];

  beforeAll(async () => {
    doomed = await populate("doomed");
    kept = await populate("kept");
    doomedScope = await tenantScope(svc.db, doomed.tenant.tenant_id);
    keptScope = await tenantScope(svc.db, kept.tenant.tenant_id);
    keptBefore = await tenantRowCounts(svc.db, keptScope);
    const files = await svc.db.fhirExportFile.findMany({ where: { exportId: { in: doomedScope.exportIds } }, select: { storageKey: true } });
    doomedExportFiles = files.map((file) => path.join(svc.dataDir, "raw", file.storageKey));
    for (const file of doomedExportFiles) expect(existsSync(file), file).toBe(true);
  }, 120_000);

  it("the tenants have rows in every table a tenant has rows in, and raw files", async () => {
    const doomedBefore = await tenantRowCounts(svc.db, doomedScope);
    // The legacy tables hold rows only in a database upgraded from an older storage (until the
    // job data-moves empties them): they are counted in the deletion below, not here.
    const empty = (counts: Record<string, number>) => Object.entries(counts).filter(([table, n]) => n === 0 && !table.endsWith("_legacy"));
    expect(empty(doomedBefore)).toEqual([]);
    expect(empty(keptBefore)).toEqual([]);
    expect(existsSync(rawFolder(doomed.users[0]!))).toBe(true);
  });

  it("answers 202 with the job; keys, tokens and the tenant's routes stop at once; the job deletes every row and raw file; the other tenant is untouched", async () => {
    const tenantId = doomed.tenant.tenant_id;
    // A delivery failing now is retried 1.5 s later: that retry must never reach the receiver.
    doomed.receiver.reply = replies.status(503);
    const received = doomed.receiver.requests.length;
    await emit(svc, jobs, { tenantId, type: "webhook.test", data: { endpoint_id: tenantId } });
    await doomed.receiver.waitFor((requests) => requests.length > received);

    const answer = await admin(`/v1/admin/tenants/${tenantId}`, "DELETE");
    const requestsAtDelete = doomed.receiver.requests.length;
    expect(answer.status, answer.text).toBe(202);
    expect(answer.body).toMatchObject({ tenant_id: tenantId, tenant_name: "doomed", users_total: 2, users_deleted: 0, finished_at: null });
    expect(["pending", "running"]).toContain(answer.body.status);
    const jobId = answer.body.job_id as string;
    expect(answer.headers.get("location")).toBe(`/v1/admin/tenant-deletions/${jobId}`);

    // At once: the tenant's keys and its users' tokens are 401, its admin routes 404; it shows as deleting.
    expect((await svc.call("/v1/users", { key: doomed.tenant.api_key })).status).toBe(401);
    expect((await svc.call(`/v1/users/${doomed.users[0]}/samples?type=heart_rate`, { key: doomed.readToken })).status).toBe(401);
    expect((await admin(`/v1/admin/tenants/${tenantId}/users`)).status).toBe(404);
    expect((await admin(`/v1/admin/tenants/${tenantId}/providers/oura`, "PATCH", { enabled: false })).status).toBe(404);
    const during = await admin(`/v1/admin/tenants/${tenantId}`);
    if (during.status === 200) expect(during.body).toMatchObject({ status: "deleting", deletion_job_id: jobId, users: 0 });

    // Asked again while it runs: the same job.
    const again = await admin(`/v1/admin/tenants/${tenantId}`, "DELETE");
    if (again.status === 202) expect(again.body.job_id).toBe(jobId);
    else expect(again.status).toBe(404); // the job may have finished already

    const ended = await deletionEnded(jobId);
    expect(ended).toMatchObject({ job_id: jobId, status: "done", users_total: 2, users_deleted: 2 });
    expect(ended.finished_at).not.toBeNull();

    // Nothing of the tenant is left; the other tenant has exactly what it had.
    const doomedAfter = await tenantRowCounts(svc.db, doomedScope);
    expect(Object.entries(doomedAfter).filter(([, n]) => n > 0)).toEqual([]);
    expect(await tenantRowCounts(svc.db, keptScope)).toEqual(keptBefore);
    for (const userId of doomed.users) expect(existsSync(rawFolder(userId))).toBe(false);
    expect(existsSync(rawFolder(kept.users[0]!))).toBe(true);
    for (const file of doomedExportFiles) expect(existsSync(file), file).toBe(false);

    // Gone for the admin routes; the deletion stays readable; a repeat is 404.
    expect((await admin(`/v1/admin/tenants/${tenantId}`)).status).toBe(404);
    expect((await admin(`/v1/admin/tenants/${tenantId}`, "DELETE")).status).toBe(404);
    expect((await admin(`/v1/admin/tenant-deletions/${jobId}`)).body).toEqual(ended);
    const listed = await admin("/v1/admin/tenants?limit=1000");
    expect(listed.body.data.map((tenant: { id: string }) => tenant.id)).not.toContain(tenantId);

    // The instance's audit log keeps the admin's entries about the tenant, tenant.delete among them.
    const log = await admin("/v1/admin/audit-log?limit=1000");
    const about = log.body.data.filter((entry: { target: { tenant_id: string } }) => entry.target.tenant_id === tenantId);
    expect(about.map((entry: { action: string }) => entry.action)).toEqual(expect.arrayContaining(["tenant.delete", "tenant.provider"]));
    expect(about.find((entry: { action: string }) => entry.action === "tenant.delete").target).toMatchObject({ resource_type: "tenant_deletion", resource_id: jobId });

    // The failing delivery's retries were due during the deletion: none reached the receiver.
    await sleep(2 * schedule.retryDelaysMs[0]!);
    expect(doomed.receiver.requests.length).toBe(requestsAtDelete);

    // The other tenant works as before, webhooks included.
    expect((await svc.call("/v1/users", { key: kept.tenant.api_key })).body.data).toHaveLength(2);
    const keptReceived = kept.receiver.requests.length;
    await emit(svc, jobs, { tenantId: kept.tenant.tenant_id, type: "webhook.test", data: { endpoint_id: kept.tenant.tenant_id } });
    await kept.receiver.waitFor((requests) => requests.length > keptReceived);
  });
});

describe("refusals", () => {
  it("needs an instance admin key (401 without, 403 for another kind), a uuid (400) and a tenant that exists (404)", async () => {
    const tenant = await svc.createTenant("still-here");
    const path = `/v1/admin/tenants/${tenant.tenant_id}`;
    expect((await svc.call(path, { method: "DELETE" })).status).toBe(401);
    expect((await svc.call(path, { method: "DELETE", key: tenant.api_key })).status).toBe(403);
    expect((await admin("/v1/admin/tenants/not-a-uuid", "DELETE")).status).toBe(400);
    expect((await admin("/v1/admin/tenants/3f0d0a7e-4c57-4b9f-8f67-4c2a8b8e7a10", "DELETE")).status).toBe(404);
    expect((await admin("/v1/admin/tenant-deletions/3f0d0a7e-4c57-4b9f-8f67-4c2a8b8e7a10")).status).toBe(404);
    expect((await admin("/v1/admin/tenant-deletions/not-a-uuid")).status).toBe(400);
    expect((await svc.call("/v1/admin/tenant-deletions/3f0d0a7e-4c57-4b9f-8f67-4c2a8b8e7a10", { key: tenant.api_key })).status).toBe(403);
    // Nothing changed.
    expect(await svc.db.tenant.findUnique({ where: { id: tenant.tenant_id }, select: { status: true } })).toEqual({ status: "active" });
    expect(await svc.db.tenantDeletionJob.count({ where: { tenantId: tenant.tenant_id } })).toBe(0);
    expect((await svc.call("/v1/users", { key: tenant.api_key })).status).toBe(200);
  });
});

describe("an upload in flight when the deletion starts", () => {
  it("answers 410 and keeps nothing: neither the raw file nor a row", async () => {
    const tenant = await svc.createTenant("uploading");
    const user = await createUser(svc, tenant.api_key);
    const token = await mintToken(svc, tenant.api_key, user, ["upload"]);
    const upload = startSlowUpload(svc.url, token);
    upload.send(heartRateSampleLine(1));
    // The upload's row exists once its bytes are arriving.
    await expect.poll(() => svc.db.rawObject.count({ where: { userId: user } }), { timeout: 10_000 }).toBe(1);

    const answer = await admin(`/v1/admin/tenants/${tenant.tenant_id}`, "DELETE");
    expect(answer.status, answer.text).toBe(202);
    upload.send(heartRateSampleLine(2));
    // The worker erases the user (its raw folder too) while the bytes still arrive.
    expect((await deletionEnded(answer.body.job_id)).status).toBe("done");
    upload.send(heartRateSampleLine(3));
    const refused = await upload.end();
    expect(refused.status).toBe(410);
    expect(await svc.db.rawObject.count({ where: { userId: user } })).toBe(0);
    expect(await svc.db.user.count({ where: { id: user } })).toBe(0);
    expect(existsSync(rawFolder(user))).toBe(false);
  });
});

describe("an instance left without tenants", () => {
  it("does not offer the first-run setup again, and SVC_BOOTSTRAP_TENANT does not bring the deleted tenant back", async () => {
    const first = await startTestService({ SVC_BOOTSTRAP_TENANT: "acme" });
    const second = await (async () => {
      try {
        const key = (await createAdminKey(first.db, "last tenant")).admin_key;
        const [acme] = await first.db.tenant.findMany({ select: { id: true } });
        const answer = await first.call(`/v1/admin/tenants/${acme!.id}`, { key, method: "DELETE" });
        expect(answer.status, answer.text).toBe(202);
        expect((await deletionEnded(answer.body.job_id, first, key)).status).toBe("done");
        expect(await first.db.tenant.count()).toBe(0);
        // The landing page, not the setup form; a posted setup is refused.
        const page = await first.call("/");
        expect(page.status).toBe(200);
        expect(page.text).not.toContain('action="/setup"');
        const posted = await first.call("/setup", {
          method: "POST",
          rawBody: "name=claimed",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: first.url, "sec-fetch-site": "same-origin" },
        });
        expect(posted.status).toBe(409);
        // The admin creates the next tenant.
        return first.databaseUrl;
      } finally {
        await first.stop();
      }
    })();
    const restarted = await startTestService({ SVC_BOOTSTRAP_TENANT: "acme" }, { databaseUrl: second });
    try {
      expect(restarted.logs.join("\n")).not.toMatch(/svc_sk_/);
      expect(await restarted.db.tenant.count()).toBe(0);
    } finally {
      await restarted.stop();
    }
  });
});
