// Benchmark: webhook delivery by one etl process (`SVC_ROLE=etl`, as `npm start` runs it) to
// a local receiver that answers 200 at once, on an embedded PostgreSQL. The process runs 8
// deliveries at once (jobs fetched 4 at a time, claims and records of deliveries that run
// together coalesced into one statement each).
//   1. latency: events written one at a time through the outbox (the same transaction that
//      fans them out and queues their jobs); time from the commit to the receiver having the
//      whole request; p50 and p99.
//   2. throughput: a backlog of events written while no etl process runs, then one etl
//      process started; events per second from the first arrival to the last.
// Prints figures; asserts nothing.
//   npm run bench -- webhooks      (BENCH_LATENCY_EVENTS=500, BENCH_BACKLOG_EVENTS=5000)
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { randomBytes, randomUUID } from "node:crypto";
import { cpus, tmpdir } from "node:os";
import path from "node:path";
import { createSealer, createTenant, emitEvent } from "@svc/core";
import { applyMigrations, createDatabase, openEmbeddedPostgres } from "@svc/db";
import { JobQueue } from "../packages/jobs/src/index.ts";
import { startWebhookReceiver } from "../packages/testing/src/webhook-receiver.ts";

const latencyEvents = Number(process.env.BENCH_LATENCY_EVENTS ?? 500);
const backlogEvents = Number(process.env.BENCH_BACKLOG_EVENTS ?? 5000);

const dataDir = mkdtempSync(path.join(tmpdir(), "svc-bench-webhooks-"));
chmodSync(dataDir, 0o755);
const postgres = await openEmbeddedPostgres(path.join(dataDir, "postgres"));
await applyMigrations(postgres.url);
const db = createDatabase(postgres.url, { max: 4 });
const jobs = await JobQueue.start(postgres.url, (error) => console.error("job queue error", error));
const encryptionKey = randomBytes(32);
const { tenant_id: tenantId } = await createTenant(db, "bench");

// Arrival times by event id (webhook-id), taken when the whole body has arrived.
const arrivals = new Map<string, number>();
const receiver = await startWebhookReceiver((request, response) => {
  arrivals.set(String(request.headers["webhook-id"]), request.receivedAt);
  response.writeHead(200).end();
});
await db.webhookEndpoint.create({
  data: {
    tenantId,
    url: receiver.url,
    eventTypes: [],
    secretSealed: createSealer({ current: encryptionKey }).seal(`whsec_${randomBytes(24).toString("base64")}`),
  },
});

/** Writes one event as the services do; returns its id and the moment its transaction committed. */
async function writeEvent(): Promise<{ id: string; committedAt: number }> {
  const marker = randomUUID();
  await db.$transaction((tx) => emitEvent(tx, jobs, { tenantId, userId: null, type: "webhook.test", data: { endpoint_id: marker } }));
  const committedAt = performance.now();
  const row = await db.outboxEvent.findFirstOrThrow({ where: { tenantId, data: { equals: { endpoint_id: marker } } }, select: { id: true } });
  return { id: row.id, committedAt };
}

function startEtl(): Promise<ChildProcess> {
  const child = spawn(process.execPath, [path.resolve(import.meta.dirname, "../apps/server/src/main.ts")], {
    env: {
      ...process.env,
      SVC_ROLE: "etl",
      PORT: "0",
      SVC_HOST: "127.0.0.1",
      DATABASE_URL: postgres.url,
      SVC_DATA_DIR: dataDir,
      SVC_ENCRYPTION_KEY: encryptionKey.toString("base64"),
      SVC_WEBHOOK_ALLOW_PRIVATE: "true",
      SVC_LOG_LEVEL: "info",
    },
    stdio: ["ignore", "pipe", "inherit"],
  });
  return new Promise((resolve, reject) => {
    child.once("exit", (code) => reject(new Error(`etl process exited with ${code}`)));
    let buffered = "";
    child.stdout!.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      if (!buffered.includes('"msg":"svc started"')) return;
      child.stdout!.removeAllListeners("data");
      child.stdout!.resume();
      resolve(child);
    });
  });
}

async function stopEtl(child: ChildProcess): Promise<void> {
  child.removeAllListeners("exit");
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  await exited;
}

async function waitForArrivals(ids: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!ids.every((id) => arrivals.has(id))) {
    if (Date.now() > deadline) throw new Error(`${ids.filter((id) => !arrivals.has(id)).length} events not delivered in time`);
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))]!;

console.log(`svc webhook benchmark: one etl process (8 concurrent deliveries), embedded PostgreSQL, ${cpus().length} CPUs, Node ${process.version}\n`);

// 1. Latency, one event at a time.
let etl = await startEtl();
for (let i = 0; i < 20; i++) {
  const warm = await writeEvent();
  await waitForArrivals([warm.id], 10_000);
}
const latencies: number[] = [];
for (let i = 0; i < latencyEvents; i++) {
  const event = await writeEvent();
  await waitForArrivals([event.id], 10_000);
  latencies.push(arrivals.get(event.id)! - event.committedAt);
}
latencies.sort((a, b) => a - b);
console.log(
  `latency, commit to arrival (${latencyEvents} events one at a time):  p50 ${percentile(latencies, 0.5).toFixed(1)} ms   p99 ${percentile(latencies, 0.99).toFixed(1)} ms   max ${latencies.at(-1)!.toFixed(1)} ms`,
);
await stopEtl(etl);

// 2. Throughput: a backlog delivered by a freshly started etl process.
const backlog: string[] = [];
let toWrite = backlogEvents;
await Promise.all(
  Array.from({ length: 8 }, async () => {
    while (toWrite-- > 0) backlog.push((await writeEvent()).id);
  }),
);
etl = await startEtl();
await waitForArrivals(backlog, 10 * 60_000);
const times = backlog.map((id) => arrivals.get(id)!).sort((a, b) => a - b);
const seconds = (times.at(-1)! - times[0]!) / 1000;
console.log(`throughput, a backlog of ${backlog.length} events:  ${(backlog.length / seconds).toFixed(0)} events/s delivered (${seconds.toFixed(1)} s, first arrival to last)`);
// A delivery's record follows its arrival by a few milliseconds.
const recordedBy = Date.now() + 5_000;
let pending = await db.webhookDelivery.count({ where: { status: { not: "done" } } });
while (pending > 0 && Date.now() < recordedBy) {
  await new Promise((resolve) => setTimeout(resolve, 50));
  pending = await db.webhookDelivery.count({ where: { status: { not: "done" } } });
}
if (pending > 0) console.log(`  ${pending} deliveries not done`);

await stopEtl(etl);
await receiver.close();
await jobs.stop();
await db.$disconnect();
await postgres.stop();
rmSync(dataDir, { recursive: true, force: true });
