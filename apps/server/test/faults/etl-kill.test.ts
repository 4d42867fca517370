// Fault test: the etl role runs as its own process (as in production) and is killed with
// SIGKILL while the ETL of a large upload is running. Its transaction never commits; pg-boss
// sees the job's heartbeat stop (the supervisor here is the test's own queue, checking every
// second), retries it, and a new etl process processes the raw object once: the same records
// as a reference upload processed without a kill, no duplicates, one data.written event.
// Killing the etl process with deliveries in flight: test/http/webhook-delivery-crash.test.ts.
import type { JobQueue } from "@svc/jobs";
import { connectSql, createTestDatabase, waitUntil } from "@svc/testing";
import { expect, it } from "vitest";
import { createUser, mintToken } from "../helpers/records.ts";
import { startServiceProcess, type ServiceProcess } from "../helpers/service-process.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { uploadNdjson } from "../helpers/uploads.ts";
import { startTestQueue, TEST_ENCRYPTION_KEY } from "../helpers/webhooks.ts";

/** Samples in the upload: enough that its ETL runs for a while (it is one transaction). */
const SAMPLES = 20_000;

const HEART_RATE = "HKQuantityTypeIdentifierHeartRate";
const STEPS = "HKQuantityTypeIdentifierStepCount";

/** An Apple Health NDJSON body: heart rate every minute and steps every ten minutes. */
function largeUpload(): string[] {
  const lines: string[] = [];
  const start = Date.UTC(2026, 0, 1);
  for (let i = 0; i < SAMPLES; i++) {
    const at = new Date(start + i * 60_000);
    lines.push(
      i % 10 === 0
        ? JSON.stringify({ kind: "quantity", uuid: `steps-${i}`, type: STEPS, value: 100 + (i % 37), unit: "count", start: at.toISOString(), end: new Date(at.getTime() + 600_000).toISOString() })
        : JSON.stringify({ kind: "quantity", uuid: `hr-${i}`, type: HEART_RATE, value: 55 + (i % 40), unit: "count/min", start: at.toISOString() }),
    );
  }
  return lines;
}

type SqlClient = Awaited<ReturnType<typeof connectSql>>;

async function etlJobOf(sql: SqlClient, rawObjectId: string): Promise<{ state: string; retry_count: number } | undefined> {
  const { rows } = await sql.query<{ state: string; retry_count: number }>(
    "SELECT state, retry_count FROM pgboss.job WHERE name = 'etl-raw-object' AND data->>'raw_object_id' = $1",
    [rawObjectId],
  );
  return rows[0];
}

async function waitProcessed(svc: TestService, rawObjectId: string, what: string) {
  await waitUntil(async () => (await svc.db.rawObject.findFirstOrThrow({ where: { id: rawObjectId } })).status === "processed", 60_000, what);
  return svc.db.rawObject.findFirstOrThrow({ where: { id: rawObjectId } });
}

/** Rows per sample type of the user, and how many distinct (type, external id) pairs they have. */
async function samplesOf(svc: TestService, userId: string) {
  const rows = await svc.db.quantitySample.findMany({ where: { userId }, select: { type: true, externalId: true } });
  const byType: Record<string, number> = {};
  for (const row of rows) byType[row.type] = (byType[row.type] ?? 0) + 1;
  return { total: rows.length, distinct: new Set(rows.map((row) => `${row.type} ${row.externalId}`)).size, byType };
}

it("processes a raw object exactly once after the etl process is killed during its ETL", { timeout: 120_000 }, async () => {
  const databaseUrl = await createTestDatabase();
  // The API only: the ETL runs in the etl processes below.
  const api = await startTestService({ SVC_ROLE: "api", SVC_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY }, { databaseUrl });
  let jobs: JobQueue | undefined;
  let sql: SqlClient | undefined;
  const etlEnv = { SVC_ROLE: "etl", DATABASE_URL: databaseUrl, SVC_DATA_DIR: api.dataDir, SVC_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY };
  const etls: ServiceProcess[] = [];
  try {
    jobs = await startTestQueue(api, { superviseIntervalSeconds: 1 });
    sql = await connectSql(databaseUrl);
    const key = (await api.createTenant()).api_key;
    const reference = await createUser(api, key);
    const killed = await createUser(api, key);
    const body = largeUpload();
    etls.push(await startServiceProcess(etlEnv));

    // The reference: the same body uploaded for another user and processed without a kill.
    const first = await uploadNdjson(api, await mintToken(api, key, reference, ["upload"]), "apple-health", body);
    expect(first.status, first.text).toBe(202);
    const referenceRaw = await waitProcessed(api, first.body.upload_id, "the reference upload processed");
    const expected = await samplesOf(api, reference);
    expect(expected.total).toBe(SAMPLES);

    const second = await uploadNdjson(api, await mintToken(api, key, killed, ["upload"]), "apple-health", body);
    expect(second.status, second.text).toBe(202);
    const rawObjectId: string = second.body.upload_id;
    await waitUntil(async () => (await etlJobOf(sql!, rawObjectId))?.state === "active", 30_000, "the ETL job active");
    etls[0]!.child.kill("SIGKILL");
    await etls[0]!.exited;
    // Killed mid-ETL: nothing of its transaction is visible.
    const stuck = await api.db.rawObject.findFirstOrThrow({ where: { id: rawObjectId } });
    expect(stuck.status, "the ETL ended before the kill: make the upload larger").toBe("pending");
    expect((await samplesOf(api, killed)).total).toBe(0);

    etls.push(await startServiceProcess(etlEnv));
    const raw = await waitProcessed(api, rawObjectId, "the upload processed by the new etl process");
    expect((await etlJobOf(sql, rawObjectId))!.retry_count).toBeGreaterThanOrEqual(1);
    expect(raw.summary).toEqual(referenceRaw.summary);
    expect(await samplesOf(api, killed)).toEqual(expected);
    expect((await samplesOf(api, killed)).distinct).toBe(SAMPLES);
    // The killed attempt's event was never committed: one data.written, as for the reference.
    const events = await api.db.outboxEvent.findMany({ where: { userId: { in: [reference, killed] }, type: "data.written" }, select: { userId: true, data: true } });
    expect(events.filter((event) => event.userId === reference)).toHaveLength(1);
    const ofKilled = events.filter((event) => event.userId === killed);
    expect(ofKilled).toHaveLength(1);
    const records = (event: { data: unknown }) => (event.data as { records: unknown }).records;
    expect(records(ofKilled[0]!)).toEqual(records(events.find((event) => event.userId === reference)!));
  } catch (error) {
    for (const etl of etls) console.error(etl.output.join(""));
    throw error;
  } finally {
    for (const etl of etls) await etl.stop();
    await sql?.end();
    await jobs?.stop();
    await api.stop();
  }
});
