// Fault test: an api process (its own process, as in production) is killed with SIGKILL while
// four uploads of one user stream into it. Nothing of it runs its error path. Another api
// process then stops counting them as in flight once their heartbeat lapsed (its 429s say when,
// within the lapse), /v1/pipeline stops counting them as running, and the upload sweep of an etl
// process deletes their rows and partial files. Timings are scaled down: the killed process
// beats every 5 s as in production; the survivors take a lapse of 8 s and sweep after 10 s.
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { UploadSettings } from "@svc/core";
import type { JobQueue } from "@svc/jobs";
import { createTestDatabase, waitUntil } from "@svc/testing";
import { expect, it } from "vitest";
import { createUser, mintToken } from "../helpers/records.ts";
import { startServiceProcess, type ServiceProcess } from "../helpers/service-process.ts";
import { heartRateSampleLine, startSlowUpload, type SlowUpload } from "../helpers/slow-upload.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { uploadNdjson } from "../helpers/uploads.ts";
import { sleep, startTestQueue, TEST_ENCRYPTION_KEY } from "../helpers/webhooks.ts";

const SETTINGS: UploadSettings = { heartbeatMs: 1_000, lapseMs: 8_000, sweepAfterMs: 10_000 };
const LAPSE_SECONDS = SETTINGS.lapseMs / 1000;

it("stops counting the uploads of a killed api process after the lapse, never as running, and sweeps their rows and files", { timeout: 120_000 }, async () => {
  const databaseUrl = await createTestDatabase();
  const dataDir = mkdtempSync(path.join(tmpdir(), "svc-upload-crash-"));
  const env = { SVC_DATA_DIR: dataDir, SVC_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY };
  let api: TestService | undefined;
  let etl: TestService | undefined;
  let queue: JobQueue | undefined;
  let doomed: ServiceProcess | undefined;
  const uploads: SlowUpload[] = [];
  let feeding: NodeJS.Timeout | undefined;
  try {
    api = await startTestService({ ...env, SVC_ROLE: "api" }, { databaseUrl, uploadSettings: SETTINGS });
    etl = await startTestService({ ...env, SVC_ROLE: "etl" }, { databaseUrl, noHttp: true, uploadSettings: SETTINGS });
    queue = await startTestQueue(api);
    doomed = await startServiceProcess({ ...env, SVC_ROLE: "api", DATABASE_URL: databaseUrl });
    const key = (await api.createTenant()).api_key;
    const user = await createUser(api, key);
    const token = await mintToken(api, key, user, ["upload"]);
    const db = api.db;
    const pipelineRunning = async () => (await api!.call("/v1/pipeline", { key })).body.processing.running as number;

    // Four uploads stream into the process about to die, a line every 200 ms each.
    for (let i = 0; i < 4; i++) uploads.push(startSlowUpload(doomed.url, token));
    let n = 0;
    feeding = setInterval(() => {
      for (const upload of uploads) upload.send(heartRateSampleLine(n++));
    }, 200);
    await waitUntil(async () => (await db.rawObject.count({ where: { userId: user, status: "receiving" } })) === 4, 30_000, "four uploads receiving");
    const stuck = await db.rawObject.findMany({ where: { userId: user, status: "receiving" }, select: { id: true, storageKey: true } });
    const files = stuck.map((row) => path.join(dataDir, "raw", row.storageKey));
    await waitUntil(() => files.every((file) => existsSync(file)), 10_000, "their files");

    // Alive: the other api process counts them; a fifth waits, at most a lapse.
    const refused = await uploadNdjson(api, token, "apple-health", [heartRateSampleLine(10_000)]);
    expect(refused.status, refused.text).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers.get("retry-after"))).toBeLessThanOrEqual(LAPSE_SECONDS);
    expect(await pipelineRunning()).toBe(4);

    doomed.child.kill("SIGKILL");
    await doomed.exited;
    clearInterval(feeding);
    expect(await Promise.all(uploads.map((upload) => upload.answer))).toEqual(["broken", "broken", "broken", "broken"]);

    // Nobody beats for them any more: once lapsed, they are no longer in flight. Every 429 on
    // the way says to come back within the lapse, and coming back then is admitted.
    let admitted = false;
    for (let attempt = 0; !admitted && attempt < 20; attempt++) {
      const answer = await uploadNdjson(api, token, "apple-health", [heartRateSampleLine(10_001)]);
      if (answer.status === 202) {
        admitted = true;
        break;
      }
      expect(answer.status, answer.text).toBe(429);
      const retryAfter = Number(answer.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(LAPSE_SECONDS);
      await sleep(retryAfter * 1000);
    }
    expect(admitted).toBe(true);
    expect(await pipelineRunning()).toBe(0);

    // The sweep (its schedule is every minute; sent here) deletes rows and partial files.
    const heartbeatsOlderThanSweep = async () => {
      const rows = await db.$queryRaw<Array<{ count: number }>>`
        SELECT count(*)::int AS count FROM raw_objects
        WHERE id = ANY(${stuck.map((row) => row.id)}::uuid[]) AND (heartbeat_at IS NULL OR heartbeat_at < now() - ${SETTINGS.sweepAfterMs} * interval '1 millisecond')`;
      return rows[0]!.count === stuck.length;
    };
    await waitUntil(heartbeatsOlderThanSweep, 30_000, "the heartbeats older than the sweep waits");
    await queue.send("upload-sweep", {});
    await waitUntil(async () => (await db.rawObject.count({ where: { id: { in: stuck.map((row) => row.id) } } })) === 0, 30_000, "the uploads swept");
    expect(files.filter((file) => existsSync(file))).toEqual([]);
    expect(await db.rawObject.count({ where: { userId: user } })).toBe(1); // the admitted one
    const swept = etl.logs.map((line) => JSON.parse(line) as { msg: string; raw_object_ids?: string[] }).filter((line) => line.raw_object_ids);
    expect(swept.flatMap((line) => line.raw_object_ids).sort()).toEqual(stuck.map((row) => row.id).sort());
    expect(etl.logs.join("\n")).not.toContain(dataDir);
  } catch (error) {
    if (doomed) console.error(doomed.output.join(""));
    throw error;
  } finally {
    clearInterval(feeding);
    for (const upload of uploads) upload.abort();
    await doomed?.stop();
    await queue?.stop();
    await etl?.stop();
    await api?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
