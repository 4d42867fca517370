// Fault test: the etl role runs as its own process (as in production) and is killed with
// SIGKILL while it runs a FHIR export. pg-boss sees the job's heartbeat stop (the supervisor
// here is the test's own queue, checking every second) and retries it; a new etl process
// continues from the export's last durable file. The files then hold every resource once,
// the same lines as an export of the same data run without a kill.
import { readFileSync } from "node:fs";
import path from "node:path";
import type { QuantitySampleRecord } from "@svc/core";
import type { JobQueue } from "@svc/jobs";
import { createTestDatabase, waitUntil } from "@svc/testing";
import { expect, it } from "vitest";
import { createUser, writeSamples } from "../helpers/records.ts";
import { startServiceProcess, type ServiceProcess } from "../helpers/service-process.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { startTestQueue, TEST_ENCRYPTION_KEY } from "../helpers/webhooks.ts";

/** Samples of the user: enough that the export runs for a while. */
const SAMPLES = 60_000;

function heartRates(): QuantitySampleRecord[] {
  const start = Date.UTC(2026, 0, 1);
  return Array.from({ length: SAMPLES }, (_, i) => ({ type: "heart_rate", value: 50 + (i % 40), start_date: new Date(start + i * 60_000), source: "garmin", device: "Venu 3" }));
}

async function queueExport(api: TestService, jobs: JobQueue, tenantId: string, userId: string, transactionTime: Date): Promise<string> {
  const [row] = await api.db.$queryRaw<Array<{ id: string }>>`
    INSERT INTO fhir_exports (tenant_id, user_id, resource_types, transaction_time, request_url)
    VALUES (${tenantId}::uuid, ${userId}::uuid, ARRAY['Patient', 'Observation'], ${transactionTime}, ${`${api.url}/v1/fhir/Patient/${userId}/$export`})
    RETURNING id`;
  await jobs.send("fhir-export", { fhir_export_id: row!.id });
  return row!.id;
}

const stateOf = async (api: TestService, id: string) =>
  (await api.db.$queryRaw<Array<{ state: string }>>`SELECT state FROM fhir_exports WHERE id = ${id}::uuid`)[0]?.state;

/** Every line of the export's files, in file order. */
async function linesOf(api: TestService, id: string): Promise<string[]> {
  const files = await api.db.$queryRaw<Array<{ storage_key: string; resource_count: bigint }>>`
    SELECT storage_key, resource_count FROM fhir_export_files WHERE export_id = ${id}::uuid ORDER BY file_number`;
  return files.flatMap((file) => {
    const lines = readFileSync(path.join(api.dataDir, "raw", file.storage_key), "utf8").split("\n").slice(0, -1);
    expect(lines).toHaveLength(Number(file.resource_count));
    return lines;
  });
}

it("writes every resource once after the etl process is killed during a FHIR export", { timeout: 240_000 }, async () => {
  const databaseUrl = await createTestDatabase();
  // The API only: the export runs in the etl processes below. Their public URL is the API's, for the same code systems.
  const api = await startTestService({ SVC_ROLE: "api", SVC_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY }, { databaseUrl });
  let jobs: JobQueue | undefined;
  const etlEnv = { SVC_ROLE: "etl", DATABASE_URL: databaseUrl, SVC_DATA_DIR: api.dataDir, SVC_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, SVC_PUBLIC_URL: api.url };
  const etls: ServiceProcess[] = [];
  try {
    jobs = await startTestQueue(api, { superviseIntervalSeconds: 1 });
    const { tenant_id: tenantId, api_key: key } = await api.createTenant();
    const userId = await createUser(api, key);
    await writeSamples(api, userId, "garmin", heartRates());
    const transactionTime = new Date();
    etls.push(await startServiceProcess(etlEnv));

    // The reference: the same export run without a kill.
    const reference = await queueExport(api, jobs, tenantId, userId, transactionTime);
    await waitUntil(async () => (await stateOf(api, reference)) === "completed", 120_000, "the reference export completed");
    const expected = await linesOf(api, reference);
    expect(expected).toHaveLength(SAMPLES + 1);

    const killed = await queueExport(api, jobs, tenantId, userId, transactionTime);
    // Killed once it started (most likely mid-file; should it have ended already, the check below still holds).
    await waitUntil(async () => (await stateOf(api, killed)) !== "queued", 30_000, "the export started");
    etls[0]!.child.kill("SIGKILL");
    await etls[0]!.exited;

    etls.push(await startServiceProcess(etlEnv));
    await waitUntil(async () => (await stateOf(api, killed)) === "completed", 120_000, "the export completed by the new etl process");
    const lines = await linesOf(api, killed);
    expect(lines).toEqual(expected);
    expect(new Set(lines).size).toBe(lines.length);
  } catch (error) {
    for (const etl of etls) console.error(etl.output.join(""));
    throw error;
  } finally {
    for (const etl of etls) await etl.stop();
    await jobs?.stop();
    await api.stop();
  }
});
