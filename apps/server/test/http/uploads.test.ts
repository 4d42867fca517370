import { randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { createUser, mintToken } from "../helpers/records.ts";

let svc: TestService;
let key: string;

beforeAll(async () => {
  svc = await startTestService();
  key = (await svc.createTenant()).api_key;
});
afterAll(() => svc?.stop());

/** A Bluetooth Heart Rate Measurement (0x2A37): flags 0x00 (uint8), `bpm`. */
const heartRateLine = (bpm: number, at: string) =>
  JSON.stringify({ characteristic: "2a37", value: `00${bpm.toString(16).padStart(2, "0")}`, received_at: at, device: "HRM-Pro" });

async function upload(token: string, body: string | Buffer, headers: Record<string, string> = {}) {
  return svc.call("/v1/ingest/bluetooth", {
    method: "POST",
    rawBody: body as string,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson", ...headers },
  });
}

async function uploader() {
  const user = await createUser(svc, key);
  return { user, token: await mintToken(svc, key, user, ["upload"]) };
}

/** Waits until the ETL has processed the raw object (the job runs in the service's workers). */
async function processed(uploadId: string) {
  for (let i = 0; i < 100; i++) {
    const raw = await svc.db.rawObject.findFirst({ where: { id: uploadId } });
    if (raw && raw.status !== "pending" && raw.status !== "receiving") return raw;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("the ETL did not process the upload");
}

describe("POST /v1/ingest/bluetooth", () => {
  it("stores the body raw, answers 202, and the ETL writes records with one data.written event", async () => {
    const { user, token } = await uploader();
    const body = [heartRateLine(72, "2026-03-01T10:00:00Z"), heartRateLine(75, "2026-03-01T10:00:01Z")].join("\n");
    const answer = await upload(token, body);
    expect(answer.status, answer.text).toBe(202);
    expect(answer.body).toMatchObject({ status: "accepted", byte_size: Buffer.byteLength(body) });
    const raw = await processed(answer.body.upload_id);
    expect(raw.status).toBe("processed");
    const samples = await svc.call(`/v1/users/${user}/samples?type=heart_rate&view=all`, { key });
    expect(samples.body.data.map((s: { value: number }) => s.value)).toEqual([72, 75]);
    expect(samples.body.data[0]).toMatchObject({ provider: "bluetooth", device: "HRM-Pro" });
    const events = await svc.db.outboxEvent.findMany({ where: { userId: user, type: "data.written" } });
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toMatchObject({ provider: "bluetooth", records: { quantity_samples: 2 }, types: ["heart_rate"], first_day: "2026-03-01", last_day: "2026-03-01" });
    // Thin: no health value, only these fields.
    expect(Object.keys(events[0]!.data as object).sort()).toEqual(["external_ref", "first_day", "last_day", "provider", "records", "types", "user_id"]);
  });

  it("keeps nothing new for a repeat: same bytes replay the first answer; new bytes of the same records send no event", async () => {
    const { user, token } = await uploader();
    const body = heartRateLine(61, "2026-03-02T10:00:00Z");
    const first = await upload(token, body);
    await processed(first.body.upload_id);
    const again = await upload(token, body);
    expect(again.status).toBe(202);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    // The same record in another body (a trailing newline): stored again raw, but no new rows and no event.
    const repeat = await upload(token, `${body}\n`);
    expect(repeat.body.upload_id).not.toBe(first.body.upload_id);
    await processed(repeat.body.upload_id);
    expect(await svc.db.quantitySample.count({ where: { userId: user } })).toBe(1);
    expect(await svc.db.outboxEvent.count({ where: { userId: user, type: "data.written" } })).toBe(1);
  });

  it("takes gzip bodies, whatever the Content-Type", async () => {
    const { user, token } = await uploader();
    const answer = await upload(token, gzipSync(heartRateLine(66, "2026-03-03T10:00:00Z")), { "content-type": "application/gzip" });
    expect(answer.status, answer.text).toBe(202);
    await processed(answer.body.upload_id);
    expect(await svc.db.quantitySample.count({ where: { userId: user } })).toBe(1);
  });

  it("answers 400 naming the line of a malformed body, and keeps nothing", async () => {
    const { user, token } = await uploader();
    const before = await svc.db.rawObject.count();
    const answer = await upload(token, [heartRateLine(60, "2026-03-01T10:00:00Z"), "{not json"].join("\n"));
    expect(answer.status).toBe(400);
    expect(answer.body.detail).toContain("line 2");
    expect(await svc.db.rawObject.count()).toBe(before);
    expect(await svc.db.quantitySample.count({ where: { userId: user } })).toBe(0);
  });

  it("refuses the same Idempotency-Key with other bytes (422)", async () => {
    const { token } = await uploader();
    const first = await upload(token, heartRateLine(60, "2026-03-01T10:00:00Z"), { "idempotency-key": "k-1" });
    expect(first.status).toBe(202);
    const other = await upload(token, heartRateLine(61, "2026-03-01T10:00:00Z"), { "idempotency-key": "k-1" });
    expect(other.status).toBe(422);
  });

  it("answers 401, 403 and 415 as the spec says", async () => {
    const { user, token } = await uploader();
    expect((await upload("svc_ut_" + "x".repeat(43), "{}")).status).toBe(401);
    expect((await upload(key, "{}")).status).toBe(403);
    const reader = await mintToken(svc, key, user, ["read"]);
    expect((await upload(reader, "{}")).status).toBe(403);
    const json = await upload(token, "{}", { "content-type": "application/json" });
    expect(json.status).toBe(415);
  });

  it("answers 413 above the size limit and keeps nothing", async () => {
    const { token } = await uploader();
    const before = await svc.db.rawObject.count();
    const answer = await upload(token, "x".repeat(17 * 1024 * 1024));
    expect(answer.status).toBe(413);
    expect(await svc.db.rawObject.count()).toBe(before);
  });

  it("answers 409 while an erasure of the user's data of this provider runs", async () => {
    const { user, token } = await uploader();
    const tenant = await svc.db.user.findUniqueOrThrow({ where: { id: user } });
    await svc.db.deletionJob.create({ data: { tenantId: tenant.tenantId, userId: user, provider: "bluetooth", status: "running" } });
    const answer = await upload(token, heartRateLine(60, "2026-03-01T10:00:00Z"));
    expect(answer.status).toBe(409);
  });

  it("answers 403 and keeps nothing while an admin switched the provider off for the tenant", async () => {
    const { setTenantProviderSwitch } = await import("@svc/core");
    const tenant = await svc.createTenant();
    const user = await createUser(svc, tenant.api_key);
    const token = await mintToken(svc, tenant.api_key, user, ["upload"]);
    await setTenantProviderSwitch(svc.db, tenant.tenant_id, "bluetooth", false);
    const before = await svc.db.rawObject.count();
    const refused = await upload(token, heartRateLine(60, "2026-03-01T10:00:00Z"));
    expect(refused.status).toBe(403);
    expect(refused.body.detail).toContain("switched off");
    expect(await svc.db.rawObject.count()).toBe(before);
    // Another provider of the tenant is still on, and switching back on admits uploads again.
    await setTenantProviderSwitch(svc.db, tenant.tenant_id, "bluetooth", true);
    expect((await upload(token, heartRateLine(60, "2026-03-01T10:00:00Z"))).status).toBe(202);
  });

  it("answers 429 above the uploads in flight, with Retry-After saying when the first of them lapses", async () => {
    const { user, token } = await uploader();
    const receiving = (heartbeatAgoMs: number) =>
      svc.db.rawObject.create({
        data: { userId: user, provider: "bluetooth", format: "bluetooth-ndjson", contentType: "x", storageKey: `k${randomUUID()}`, heartbeatAt: new Date(Date.now() - heartbeatAgoMs) },
      });
    // Four uploads whose process beat a moment ago: in flight for the 30 s of the lapse.
    for (let i = 0; i < 4; i++) await receiving(0);
    const full = await upload(token, heartRateLine(60, "2026-03-01T10:00:00Z"));
    expect(full.status).toBe(429);
    expect(Number(full.headers.get("retry-after"))).toBeGreaterThanOrEqual(20);
    expect(Number(full.headers.get("retry-after"))).toBeLessThanOrEqual(30);

    // The oldest beat 20 s ago: it lapses in about 10 s if its process died.
    await svc.db.rawObject.deleteMany({ where: { userId: user } });
    await receiving(20_000);
    for (let i = 0; i < 3; i++) await receiving(0);
    const soon = await upload(token, heartRateLine(61, "2026-03-01T10:00:00Z"));
    expect(soon.status).toBe(429);
    expect(Number(soon.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(soon.headers.get("retry-after"))).toBeLessThanOrEqual(10);

    // Uploads whose heartbeat lapsed (their process died, their client went away) are not in flight.
    await svc.db.rawObject.deleteMany({ where: { userId: user } });
    for (let i = 0; i < 4; i++) await receiving(31_000);
    const admitted = await upload(token, heartRateLine(62, "2026-03-01T10:00:00Z"));
    expect(admitted.status, admitted.text).toBe(202);
  });

  it("answers 401 for the token of a user being deleted, and the deletion removes the user's raw files", async () => {
    const { user, token } = await uploader();
    const first = await upload(token, heartRateLine(60, "2026-03-01T10:00:00Z"));
    await processed(first.body.upload_id);
    const userRawDir = path.join(svc.dataDir, "raw", user);
    expect(existsSync(path.join(userRawDir, first.body.upload_id))).toBe(true);

    const deletion = await svc.call(`/v1/users/${user}`, { key, method: "DELETE" });
    expect(deletion.status).toBe(202);
    expect((await upload(token, heartRateLine(61, "2026-03-01T10:00:00Z"))).status).toBe(401);
    for (let i = 0; i < 100 && (await svc.db.deletionJob.findUniqueOrThrow({ where: { id: deletion.body.job_id } })).status !== "done"; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(existsSync(userRawDir)).toBe(false);
  });
});

describe("an upload racing an erasure of the provider's data", () => {
  it("answers 409 and keeps nothing when the erasure was requested while the bytes arrived", async () => {
    const { mkdtempSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const { beginUpload, completeUpload, DEFAULT_UPLOAD_SETTINGS, fileRawStore, isAppError } = await import("@svc/core");
    const { JobQueue } = await import("@svc/jobs");
    const { user } = await uploader();
    const rawStore = fileRawStore(mkdtempSync(path.join(tmpdir(), "svc-raw-")));
    const tenantId = (await svc.db.user.findUniqueOrThrow({ where: { id: user } })).tenantId;
    const target = { userId: user, provider: "bluetooth", format: "bluetooth-ndjson", contentType: "application/x-ndjson" };
    const upload = { ...(await beginUpload({ db: svc.db, uploads: DEFAULT_UPLOAD_SETTINGS }, tenantId, target)), userId: user, provider: "bluetooth", idempotencyKey: undefined };
    const stored = await rawStore.write(upload.storageKey, Readable.from([Buffer.from(heartRateLine(60, "2026-03-01T10:00:00Z"))]), 1024);
    await svc.db.deletionJob.create({ data: { tenantId, userId: user, provider: "bluetooth", status: "pending" } });
    const jobs = await JobQueue.start(svc.databaseUrl, () => undefined);
    const error = await completeUpload({ db: svc.db, jobs, rawStore }, upload, stored).catch((e: unknown) => e);
    await jobs.stop();
    expect(isAppError(error) && error.status).toBe(409);
    expect(await svc.db.rawObject.count({ where: { id: upload.rawObjectId } })).toBe(0);
  });
});

describe("an upload racing the user's deletion", () => {
  it("answers 410 and keeps nothing when the deletion started while the bytes arrived", async () => {
    const { mkdtempSync } = await import("node:fs");
    const { tmpdir } = await import("node:os");
    const path = await import("node:path");
    const { beginUpload, completeUpload, DEFAULT_UPLOAD_SETTINGS, fileRawStore, isAppError } = await import("@svc/core");
    const { user } = await uploader();
    const rawStore = fileRawStore(mkdtempSync(path.join(tmpdir(), "svc-raw-")));
    const target = { userId: user, provider: "bluetooth", format: "bluetooth-ndjson", contentType: "application/x-ndjson" };
    const tenantId = (await svc.db.user.findUniqueOrThrow({ where: { id: user } })).tenantId;
    const upload = { ...(await beginUpload({ db: svc.db, uploads: DEFAULT_UPLOAD_SETTINGS }, tenantId, target)), userId: user, provider: "bluetooth", idempotencyKey: undefined };
    const stored = await rawStore.write(upload.storageKey, Readable.from([Buffer.from(heartRateLine(60, "2026-03-01T10:00:00Z"))]), 1024);
    // The token was accepted; now the tenant deletes the user before the upload completes.
    expect((await svc.call(`/v1/users/${user}`, { key, method: "DELETE" })).status).toBe(202);
    const { JobQueue } = await import("@svc/jobs");
    const jobs = await JobQueue.start(svc.databaseUrl, () => undefined);
    const error = await completeUpload({ db: svc.db, jobs, rawStore }, upload, stored).catch((e: unknown) => e);
    await jobs.stop();
    expect(isAppError(error) && error.status).toBe(410);
    expect(await svc.db.rawObject.count({ where: { id: upload.rawObjectId } })).toBe(0);
  });
});

describe("values PostgreSQL cannot store (found by uploads-fuzz.test.ts: every ETL attempt threw)", () => {
  it("drops NUL and replaces lone surrogates in the records' text, and processes the upload", async () => {
    const { user, token } = await uploader();
    const line = (device: string, at: string) => JSON.stringify({ characteristic: "2a37", value: "0048", received_at: at, device, device_id: device });
    const answer = await upload(token, [line("HRM\u0000Pro", "2026-03-04T10:00:00Z"), line("HRM\uD800", "2026-03-04T10:00:01Z")].join("\n"));
    expect(answer.status, answer.text).toBe(202);
    const raw = await processed(answer.body.upload_id);
    expect(raw.status, raw.error ?? "").toBe("processed");
    const samples = await svc.call(`/v1/users/${user}/samples?type=heart_rate&view=all`, { key });
    expect(samples.body.data.map((s: { device: string }) => s.device)).toEqual(["HRMPro", "HRM\uFFFD"]);
  });

  it("rejects records at times outside the years 0001 to 9999 and stores the others", async () => {
    const { user, token } = await uploader();
    const weight = (id: string, time: number | string) => JSON.stringify({ recordType: "Weight", metadata: { id, dataOrigin: "com.example.scale" }, time, weight: { inKilograms: 70 } });
    // Health Connect takes epoch milliseconds: year -271821, year 0 and year 275760 are valid JavaScript dates.
    const body = [weight("a", -8.64e15), weight("b", Date.parse("0000-06-01T00:00:00Z")), weight("c", 8.64e15), weight("d", "2026-03-01T08:00:00Z")].join("\n");
    const answer = await svc.call("/v1/ingest/health-connect", { method: "POST", rawBody: body, headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" } });
    expect(answer.status, answer.text).toBe(202);
    const raw = await processed(answer.body.upload_id);
    expect(raw.status, raw.error ?? "").toBe("processed");
    expect(raw.summary).toMatchObject({ records: { quantity_samples: 1 }, rejected: 3 });
    const samples = await svc.call(`/v1/users/${user}/samples?type=body_mass&view=all`, { key });
    expect(samples.body.data.map((s: { start_date: string }) => s.start_date)).toEqual(["2026-03-01T08:00:00.000Z"]);
    const events = await svc.db.outboxEvent.findMany({ where: { userId: user, type: "data.written" } });
    expect(events.map((e) => e.data)).toMatchObject([{ first_day: "2026-03-01", last_day: "2026-03-01" }]);
  });

  it("rejects a sample lasting longer than 68 years (its stream keeps the duration in int4 seconds)", async () => {
    const { user, token } = await uploader();
    const steps = (id: string, startTime: string, endTime: string) => JSON.stringify({ recordType: "Steps", metadata: { id, dataOrigin: "com.example.phone" }, startTime, endTime, count: 3 });
    const body = [steps("a", "1900-01-01T00:00:00Z", "2026-01-01T00:00:00Z"), steps("b", "1960-01-01T00:00:00Z", "2026-01-01T00:00:00Z")].join("\n");
    const answer = await svc.call("/v1/ingest/health-connect", { method: "POST", rawBody: body, headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" } });
    expect(answer.status, answer.text).toBe(202);
    const raw = await processed(answer.body.upload_id);
    expect(raw.status, raw.error ?? "").toBe("processed");
    expect(raw.summary).toMatchObject({ records: { quantity_samples: 1 }, rejected: 1 });
    const rejected = await svc.db.rejectedRecord.findMany({ where: { userId: user }, select: { reason: true } });
    expect(rejected).toEqual([{ reason: "step_count: lasts longer than 68 years" }]);
  });

  it("rejects a sleep session whose phases add up to more than 68 years (the totals are int4 seconds)", async () => {
    const { user, token } = await uploader();
    const night = { startTime: "2026-03-01T22:00:00Z", endTime: "2026-03-02T06:00:00Z" };
    const session = (id: string, stageEnd: string) =>
      JSON.stringify({ recordType: "SleepSession", metadata: { id, dataOrigin: "com.example.watch" }, ...night, stages: [{ startTime: night.startTime, endTime: stageEnd, stage: 4 }] });
    const body = [session("a", "2236-03-02T06:00:00Z"), session("b", "2026-03-02T06:00:00Z")].join("\n");
    const answer = await svc.call("/v1/ingest/health-connect", { method: "POST", rawBody: body, headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" } });
    expect(answer.status, answer.text).toBe(202);
    const raw = await processed(answer.body.upload_id);
    expect(raw.status, raw.error ?? "").toBe("processed");
    expect(raw.summary).toMatchObject({ records: { sleep_sessions: 1 }, rejected: 1 });
    const rejected = await svc.db.rejectedRecord.findMany({ where: { userId: user }, select: { reason: true } });
    expect(rejected).toEqual([{ reason: "phases add up to more than 68 years" }]);
  });
});

describe("two identical uploads without Idempotency-Key at the same moment", () => {
  it("answer as a sequential repeat would (the first upload's answer), never 5xx, and keep one raw object", async () => {
    for (let round = 0; round < 6; round++) {
      const { user, token } = await uploader();
      const body = heartRateLine(60 + round, `2026-04-0${round + 1}T10:00:00Z`);
      const answers = await Promise.all([upload(token, body), upload(token, body)]);
      for (const answer of answers) expect(answer.status, answer.text).toBe(202);
      expect(answers[0]!.body).toEqual(answers[1]!.body);
      expect(await svc.db.rawObject.count({ where: { userId: user } })).toBe(1);
    }
  });
});
