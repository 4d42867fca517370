import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTenant } from "@svc/core";
import { createDatabase } from "@svc/db";
import { createEmptyTestDatabase, createTestDatabase, startWebhookReceiver, waitUntil } from "@svc/testing";
import { describe, expect, it } from "vitest";
import { post, startServiceProcess, type ServiceProcess } from "../helpers/service-process.ts";
import { startTestService } from "../helpers/test-service.ts";
import { heartRateLine } from "../helpers/uploads.ts";
import { TEST_ENCRYPTION_KEY, attemptsOf, deliveriesOf, insertEndpoint } from "../helpers/webhooks.ts";

/**
 * That an api process runs no job can only be checked by waiting. Workers poll every second
 * (NOTIFY wakes those of webhook deliveries at once) and are started before the service is
 * up, so a worker started by mistake in an api process fetches a job queued this long ago.
 */
const NO_WORKER_WAIT_MS = 2_000;

const noWorkerWait = () => new Promise((resolve) => setTimeout(resolve, NO_WORKER_WAIT_MS));

describe("SVC_ROLE", () => {
  it("api serves HTTP without workers; etl runs the jobs the api queued", async () => {
    const api = await startTestService({ SVC_ROLE: "api" });
    try {
      const { api_key: key } = await api.createTenant();
      const user = (await api.call("/v1/users", { key, body: {} })).body;
      const { job_id } = (await api.call(`/v1/users/${user.id}`, { key, method: "DELETE" })).body;
      await noWorkerWait();
      expect((await api.call(`/v1/deletions/${job_id}`, { key })).body.status).toBe("pending");

      const etl = await startTestService({ SVC_ROLE: "etl" }, { databaseUrl: api.databaseUrl, noHttp: true });
      try {
        await waitUntil(async () => (await api.call(`/v1/deletions/${job_id}`, { key })).body.status === "done", 10_000, "the deletion done");
      } finally {
        await etl.stop();
      }
    } finally {
      await api.stop();
    }
  });

  it("SVC_MIGRATE_ON_START=false leaves the database as it is; the default migrates", async () => {
    const url = await createEmptyTestDatabase();
    const migrationTable = `SELECT to_regclass('public._prisma_migrations')::text AS name`;
    const unmigrated = await startTestService({ SVC_MIGRATE_ON_START: "false" }, { databaseUrl: url });
    try {
      expect(await unmigrated.db.$queryRawUnsafe(migrationTable)).toEqual([{ name: null }]);
    } finally {
      await unmigrated.stop();
    }
    const migrated = await startTestService({}, { databaseUrl: url });
    try {
      expect(await migrated.db.$queryRawUnsafe(migrationTable)).toEqual([{ name: "_prisma_migrations" }]);
    } finally {
      await migrated.stop();
    }
  });
});

// Several processes of each role on one PostgreSQL, as `node apps/server/src/main.ts` runs
// them in production: webhooks leave only from etl processes, once per event and endpoint.
it("two api and two etl processes on one database: only etl posts webhooks, each event once per endpoint; uploads to either api are processed", { timeout: 180_000 }, async () => {
  const databaseUrl = await createTestDatabase();
  const db = createDatabase(databaseUrl, { max: 2 });
  const dataDir = mkdtempSync(path.join(tmpdir(), "svc-roles-"));
  const receivers = await Promise.all([startWebhookReceiver(), startWebhookReceiver()]);
  const env = { DATABASE_URL: databaseUrl, SVC_DATA_DIR: dataDir, SVC_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, SVC_WEBHOOK_ALLOW_PRIVATE: "true" };
  const processes: ServiceProcess[] = [];
  const start = async (role: "api" | "etl") => {
    const started = await startServiceProcess({ ...env, SVC_ROLE: role });
    processes.push(started);
    return started;
  };
  try {
    const { tenant_id: tenantId, api_key: key } = await createTenant(db, "roles");
    const endpoints = await Promise.all(receivers.map((receiver) => insertEndpoint({ db }, tenantId, receiver.url)));

    const apis = await Promise.all([start("api"), start("api")]);
    // Through each api: a user, a tag (its tag.created event) and an upload.
    const uploadIds: string[] = [];
    for (const [i, api] of apis.entries()) {
      const user = (await post(api, "/v1/users", key, {})).id as string;
      await post(api, `/v1/users/${user}/tags`, key, { kind: "illness", label: `Cold ${i}`, start_at: "2026-03-01T08:00:00Z" });
      const token = (await post(api, `/v1/users/${user}/tokens`, key, { scopes: ["upload"] })).token as string;
      const upload = await fetch(`${api.url}/v1/ingest/bluetooth`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" },
        body: heartRateLine(60 + i, "2026-03-01T10:00:00Z"),
      });
      expect(upload.status).toBe(202);
      uploadIds.push(((await upload.json()) as { upload_id: string }).upload_id);
    }

    // Without an etl process nothing is posted and nothing is processed: no job was even fetched.
    await noWorkerWait();
    const states = await db.$queryRawUnsafe<Array<{ state: string }>>(`SELECT DISTINCT state FROM pgboss.job`);
    expect(states).toEqual([{ state: "created" }]);
    expect(receivers.map((receiver) => receiver.requests.length)).toEqual([0, 0]);
    const pending = await db.webhookDelivery.findMany({ where: { endpointId: { in: endpoints.map((e) => e.id) } } });
    expect(pending).toHaveLength(4);
    expect(pending.every((row) => row.status === "pending")).toBe(true);
    expect((await db.rawObject.findMany({ where: { id: { in: uploadIds } } })).map((raw) => raw.status)).toEqual(["pending", "pending"]);

    await Promise.all([start("etl"), start("etl")]);
    await waitUntil(async () => (await db.rawObject.count({ where: { id: { in: uploadIds }, status: "processed" } })) === 2, 60_000, "both uploads processed");
    // The events: two tag.created, and a data.written of each upload's ETL.
    const events = await db.outboxEvent.findMany({ where: { tenantId }, select: { id: true, type: true } });
    expect(events.map((event) => event.type).sort()).toEqual(["data.written", "data.written", "tag.created", "tag.created"]);
    const eventIds = events.map((event) => event.id).sort();
    for (const [i, endpoint] of endpoints.entries()) {
      await waitUntil(async () => (await db.webhookDelivery.count({ where: { endpointId: endpoint.id, status: "done" } })) === 4, 30_000, "every delivery done");
      const received = receivers[i]!.requests.map((request) => String(request.headers["webhook-id"])).sort();
      expect(received).toEqual(eventIds);
      const rows = await deliveriesOf({ db }, endpoint.id);
      expect(rows.map((row) => row.eventId).sort()).toEqual(eventIds);
      for (const row of rows) {
        expect(row).toMatchObject({ status: "done", attemptsMade: 1 });
        expect(await attemptsOf({ db }, row.id)).toHaveLength(1);
      }
    }
    // Each process ends cleanly on SIGTERM.
    expect(await Promise.all(processes.map((started) => started.stop()))).toEqual(processes.map(() => 0));
  } catch (error) {
    for (const started of processes) console.error(started.output.join(""));
    throw error;
  } finally {
    // Only what is still running (after a failure): its exit code would hide the failure.
    await Promise.all(processes.map((started) => started.stop()));
    await Promise.all(receivers.map((receiver) => receiver.close()));
    await db.$disconnect();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
