// Fault test: PostgreSQL is stopped for a few seconds under a stream of uploads and started
// again on the same data folder and port. The service is not restarted: while the database is
// away it answers 503 (problem+json, Retry-After) or the connection is refused, never a 500;
// afterwards it answers again, and every upload it accepted (202) is stored and processed once.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { applyMigrations, openEmbeddedPostgres, type RunningPostgres } from "@svc/db";
import { waitUntil } from "@svc/testing";
import { expect, it } from "vitest";
import { createUser, mintToken } from "../helpers/records.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { sleep } from "../helpers/webhooks.ts";

/** Uploaders at once, each as its own user (a broken-off upload holds one of the user's in-flight slots). */
const LANES = 4;
const SAMPLES_PER_UPLOAD = 5;
const OUTAGE_MS = 3_000;

interface Answer {
  lane: number;
  /** The HTTP status, or "refused" when no answer came (connection-level error). */
  status: number | "refused";
  contentType: string | null;
  retryAfter: string | null;
  uploadId?: string;
  uuids: string[];
}

it("answers 503 or refuses while PostgreSQL is down, recovers by itself, and keeps every accepted upload", { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(path.join(tmpdir(), "svc-fault-pg-"));
  chmodSync(dir, 0o755); // the embedded server runs as the postgres user
  const pgDir = path.join(dir, "pg");
  let postgres: RunningPostgres | undefined = await openEmbeddedPostgres(pgDir);
  const port = postgres.port;
  await applyMigrations(postgres.url);
  let svc: TestService | undefined;
  const answers: Answer[] = [];
  let loading = true;
  const lanes: Promise<void>[] = [];
  try {
    svc = await startTestService({}, { databaseUrl: postgres.url });
    const key = (await svc.createTenant()).api_key;
    const tokens: string[] = [];
    for (let lane = 0; lane < LANES; lane++) tokens.push(await mintToken(svc, key, await createUser(svc, key), ["upload"]));

    const url = svc.url;
    let sequence = 0;
    const uploadOnce = async (lane: number): Promise<void> => {
      const n = sequence++;
      const uuids = Array.from({ length: SAMPLES_PER_UPLOAD }, (_, i) => `fault-${n}-${i}`);
      const body = uuids
        .map((uuid, i) =>
          JSON.stringify({ kind: "quantity", uuid, type: "HKQuantityTypeIdentifierHeartRate", value: 60 + i, unit: "count/min", start: new Date(Date.UTC(2026, 0, 1, 0, n, i)).toISOString() }),
        )
        .join("\n");
      try {
        const response = await fetch(`${url}/v1/ingest/apple-health`, {
          method: "POST",
          headers: { authorization: `Bearer ${tokens[lane]}`, "content-type": "application/x-ndjson" },
          body,
        });
        const text = await response.text();
        answers.push({
          lane,
          status: response.status,
          contentType: response.headers.get("content-type"),
          retryAfter: response.headers.get("retry-after"),
          uploadId: response.status === 202 ? (JSON.parse(text) as { upload_id: string }).upload_id : undefined,
          uuids,
        });
        // A client honours Retry-After (scaled down here) instead of hammering the server.
        if (response.status === 503) await sleep(200);
      } catch {
        answers.push({ lane, status: "refused", contentType: null, retryAfter: null, uuids });
        await sleep(200);
      }
    };
    for (let lane = 0; lane < LANES; lane++) {
      lanes.push(
        (async () => {
          while (loading) await uploadOnce(lane);
        })(),
      );
    }
    const accepted = () => answers.filter((answer) => answer.status === 202).length;

    await waitUntil(() => accepted() >= 2 * LANES, 30_000, "uploads accepted before the outage");
    await postgres.stop();
    postgres = undefined;
    const answeredBeforeOutage = answers.length;
    // The outage: the stream of uploads keeps going against the stopped database.
    await sleep(OUTAGE_MS);
    await waitUntil(() => answers.length >= answeredBeforeOutage + LANES, 30_000, "answers during the outage");
    const duringOutage = answers.slice(answeredBeforeOutage);
    const unready = await fetch(`${url}/readyz`);
    expect(unready.status).toBe(503);

    postgres = await openEmbeddedPostgres(pgDir, { port });
    const acceptedBeforeRestart = accepted();
    await waitUntil(() => accepted() >= acceptedBeforeRestart + 2 * LANES, 60_000, "uploads accepted after the restart");
    loading = false;
    await Promise.all(lanes);

    // While the database was away: unavailable or refused, never an unexpected error.
    // The HTTP listener stays up while the database is away: at least one answer is the 503.
    expect(duringOutage.some((answer) => answer.status === 503)).toBe(true);
    const unexpected = answers.filter((answer) => answer.status !== 202 && answer.status !== 503 && answer.status !== "refused");
    // On a failure, the service's error lines say which error was not taken for the database being away.
    const errors = (svc?.logs ?? []).filter((line) => (JSON.parse(line) as { level: number }).level >= 50);
    expect(unexpected.map((answer) => answer.status), errors.join("\n")).toEqual([]);
    for (const answer of answers.filter((answer) => answer.status === 503)) {
      expect(answer.contentType).toContain("application/problem+json");
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
    }

    // The service is ready and answers reads again without having been restarted.
    expect((await fetch(`${url}/readyz`)).status).toBe(200);
    const users = await svc.call("/v1/users", { key });
    expect(users.status, users.text).toBe(200);

    // Every accepted upload is processed (its ETL job, queued before, during or after the
    // outage, ran), and each of its samples is stored exactly once.
    const acceptedUploads = answers.filter((answer) => answer.status === 202);
    const ids = acceptedUploads.map((answer) => answer.uploadId!);
    const db = svc.db;
    await waitUntil(async () => (await db.rawObject.count({ where: { id: { in: ids }, status: "processed" } })) === ids.length, 60_000, "every accepted upload processed");
    const uuids = acceptedUploads.flatMap((answer) => answer.uuids);
    const stored = await db.quantitySample.findMany({ where: { externalId: { in: uuids } }, select: { externalId: true } });
    expect(stored.map((row) => row.externalId).sort()).toEqual([...uuids].sort());
    const counts = new Map<string, number>();
    for (const answer of answers) counts.set(String(answer.status), (counts.get(String(answer.status)) ?? 0) + 1);
    console.log(`postgres restart: answers by status ${JSON.stringify(Object.fromEntries(counts))}`);
  } finally {
    loading = false;
    await Promise.allSettled(lanes);
    await svc?.stop();
    await postgres?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
});
