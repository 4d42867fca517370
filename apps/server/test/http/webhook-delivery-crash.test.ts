// Crash test: the etl role runs as its own process (as in production) and is killed with
// SIGKILL while deliveries are in flight; a new etl process delivers every event, none lost.
// The killed attempts come back through pg-boss: their jobs stop sending heartbeats, the
// supervisor (here the test's own queue, checking every second) fails them, and they are
// retried as jobs whose delivery is still `running`, which the claim takes again.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTenant } from "@svc/core";
import { createDatabase } from "@svc/db";
import { createTestDatabase, replies, startWebhookReceiver, waitUntil } from "@svc/testing";
import { expect, it } from "vitest";
import { startServiceProcess, type ServiceProcess } from "../helpers/service-process.ts";
import { TEST_ENCRYPTION_KEY, deliveriesOf, emit, insertEndpoint, startTestQueue, testEvent } from "../helpers/webhooks.ts";

const EVENTS = 20;
/** localConcurrency of webhook-deliver in the job catalog: requests one etl process holds open at once. */
const IN_FLIGHT = 8;

it("delivers every event at least once after the etl process is killed with deliveries in flight", { timeout: 90_000 }, async () => {
  const databaseUrl = await createTestDatabase();
  const db = createDatabase(databaseUrl, { max: 2 });
  const dataDir = mkdtempSync(path.join(tmpdir(), "svc-crash-"));
  const jobs = await startTestQueue({ databaseUrl }, { superviseIntervalSeconds: 1 });
  // Holds every request open until the first process is gone, then accepts.
  const target = await startWebhookReceiver(replies.hold());
  const accepted = new Set<string>();
  const etlEnv = { SVC_ROLE: "etl", DATABASE_URL: databaseUrl, SVC_DATA_DIR: dataDir, SVC_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY, SVC_WEBHOOK_ALLOW_PRIVATE: "true" };
  const etls: ServiceProcess[] = [];
  try {
    const { tenant_id: tenantId } = await createTenant(db, "crash");
    const endpoint = await insertEndpoint({ db }, tenantId, target.url);

    etls.push(await startServiceProcess(etlEnv));
    const eventIds: string[] = [];
    for (let i = 0; i < EVENTS; i++) eventIds.push((await emit({ db }, jobs, testEvent(tenantId))).eventId);
    await target.waitFor((requests) => requests.length >= IN_FLIGHT, 15_000);

    etls[0]!.child.kill("SIGKILL");
    await etls[0]!.exited;
    const heldIds = new Set(target.requests.map((request) => String(request.headers["webhook-id"])));
    expect(heldIds.size).toBe(IN_FLIGHT);
    const stuck = await deliveriesOf({ db }, endpoint.id);
    expect(stuck.filter((row) => row.status === "running")).toHaveLength(IN_FLIGHT);

    target.reply = (request, response) => {
      accepted.add(String(request.headers["webhook-id"]));
      response.writeHead(200).end();
    };
    const killedAt = performance.now();
    etls.push(await startServiceProcess(etlEnv));
    await waitUntil(() => eventIds.every((id) => accepted.has(id)), 60_000, "every event accepted");
    console.log(`crash test: every event delivered ${((performance.now() - killedAt) / 1000).toFixed(1)} s after the kill`);

    for (const id of heldIds) expect(accepted.has(id)).toBe(true);
    await waitUntil(async () => (await deliveriesOf({ db }, endpoint.id)).every((row) => row.status === "done"), 5_000, "all done");
    // The killed attempts left no trace in the history: each delivery shows the one attempt that was answered.
    const rows = await deliveriesOf({ db }, endpoint.id);
    expect(rows).toHaveLength(EVENTS);
    expect(rows.every((row) => row.status === "done" && row.attemptsMade === 1)).toBe(true);
  } catch (error) {
    for (const etl of etls) console.error(etl.output.join(""));
    throw error;
  } finally {
    for (const etl of etls) await etl.stop();
    await target.close();
    await jobs.stop();
    await db.$disconnect();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
