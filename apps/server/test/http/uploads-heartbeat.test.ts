// An upload in flight is one whose process shows it alive: while its bytes arrive (and while the
// service checks and commits it) its heartbeat is renewed. One whose bytes stopped lapses, and the
// upload sweep drops it (bytes and row). Timings are scaled down (DEFAULT_UPLOAD_SETTINGS: 5 s,
// 30 s, 2 min); the crash of an api process is in test/faults/upload-crash.test.ts.
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { Readable } from "node:stream";
import { abandonUpload, beginUpload, completeUpload, fileRawStore, type UploadSettings } from "@svc/core";
import { createDatabase } from "@svc/db";
import type { JobQueue } from "@svc/jobs";
import { closedPort, waitUntil } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, mintToken } from "../helpers/records.ts";
import { heartRateSampleLine, startSlowUpload } from "../helpers/slow-upload.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { sleep, startTestQueue } from "../helpers/webhooks.ts";

const SETTINGS: UploadSettings = { heartbeatMs: 200, lapseMs: 2_000, sweepAfterMs: 3_000 };

let svc: TestService;
let key: string;
let queue: JobQueue;

beforeAll(async () => {
  svc = await startTestService({}, { uploadSettings: SETTINGS });
  key = (await svc.createTenant()).api_key;
  queue = await startTestQueue(svc);
});
afterAll(async () => {
  await queue?.stop();
  await svc?.stop();
});

async function uploader() {
  const user = await createUser(svc, key);
  return { user, token: await mintToken(svc, key, user, ["upload"]) };
}

const rawFile = (storageKey: string) => path.join(svc.dataDir, "raw", storageKey);

/** The user's one receiving upload once its bytes have begun to arrive. */
async function receivingUpload(user: string) {
  await waitUntil(
    async () => {
      const rows = await svc.db.rawObject.findMany({ where: { userId: user, status: "receiving" } });
      return rows.length === 1 && existsSync(rawFile(rows[0]!.storageKey));
    },
    10_000,
    "the upload receiving",
  );
  return svc.db.rawObject.findFirstOrThrow({ where: { userId: user, status: "receiving" } });
}

/** Whether the upload's last heartbeat is older than `ms`, on the database's clock. */
async function heartbeatOlderThan(id: string, ms: number): Promise<boolean> {
  const rows = await svc.db.$queryRaw<Array<{ old: boolean }>>`
    SELECT heartbeat_at < now() - ${ms} * interval '1 millisecond' AS old FROM raw_objects WHERE id = ${id}::uuid`;
  return rows[0]?.old === true;
}

describe("the heartbeat of an upload in flight", () => {
  it("drops an upload whose bytes stopped for longer than the sweep waits, bytes and row, and answers 503 when they resume", async () => {
    const { user, token } = await uploader();
    const upload = startSlowUpload(svc.url, token);
    upload.send(heartRateSampleLine(1));
    const row = await receivingUpload(user);

    // The client sends nothing more: no heartbeat. Once it lapsed longer ago than the sweep waits, the sweep drops it.
    await waitUntil(() => heartbeatOlderThan(row.id, SETTINGS.sweepAfterMs), 10_000, "the heartbeat lapsed");
    await queue.send("upload-sweep", {});
    await waitUntil(async () => (await svc.db.rawObject.count({ where: { id: row.id } })) === 0, 10_000, "the upload swept");
    expect(existsSync(rawFile(row.storageKey))).toBe(false);
    expect(svc.logs.join("\n")).toContain(row.id);

    // The client goes on: the next heartbeat finds the upload dropped and the answer comes while
    // the body still arrives; nothing of it is kept.
    let answered = false;
    void upload.answer.then(() => (answered = true));
    for (let n = 2; !answered && n < 200; n++) {
      upload.send(heartRateSampleLine(n));
      await sleep(50);
    }
    expect(answered).toBe(true);
    const answer = await upload.end();
    expect(answer.status, JSON.stringify(answer.body)).toBe(503);
    expect(answer.headers["content-type"]).toContain("application/problem+json");
    expect(answer.headers["retry-after"]).toBe("1");
    // The rest of its body is still on the connection: it is not used again.
    expect(answer.headers.connection).toBe("close");
    expect(answer.body.detail).toContain("Send it again");
    expect(await svc.db.rawObject.count({ where: { userId: user } })).toBe(0);
    expect(readdirSync(path.dirname(rawFile(row.storageKey)))).toEqual([]);
  });

  it("keeps an upload whose bytes keep arriving across sweeps, and accepts it", async () => {
    const { user, token } = await uploader();
    const upload = startSlowUpload(svc.url, token);
    upload.send(heartRateSampleLine(100));
    const row = await receivingUpload(user);
    // Longer than the sweep waits, with a sweep on the way: a byte now and then keeps it alive.
    const until = Date.now() + 2 * SETTINGS.sweepAfterMs;
    for (let n = 101; Date.now() < until; n++) {
      upload.send(heartRateSampleLine(n));
      await sleep(50);
      if (n === 120) await queue.send("upload-sweep", {});
    }
    await queue.send("upload-sweep", {});
    await sleep(500);
    expect(await svc.db.rawObject.count({ where: { id: row.id } })).toBe(1);
    const answer = await upload.end();
    expect(answer.status, JSON.stringify(answer.body)).toBe(202);
    expect(answer.body.upload_id).toBe(row.id);
    expect(existsSync(rawFile(row.storageKey))).toBe(true);
  });

  it("takes a client that breaks off mid-body for what it is, not for a database outage, and drops its upload", async () => {
    const { user, token } = await uploader();
    const upload = startSlowUpload(svc.url, token);
    upload.send(heartRateSampleLine(200));
    const row = await receivingUpload(user);
    const logged = svc.logs.length;
    upload.abort();
    await waitUntil(async () => (await svc.db.rawObject.count({ where: { id: row.id } })) === 0, 10_000, "the upload dropped");
    expect(existsSync(rawFile(row.storageKey))).toBe(false);
    await sleep(200);
    const lines = svc.logs.slice(logged).map((line) => JSON.parse(line) as { level: number; msg: string });
    expect(lines.filter((line) => /database|unavailable/i.test(line.msg))).toEqual([]);
    expect(lines.filter((line) => line.level >= 50)).toEqual([]);
  });
});

describe("dropping an upload that broke off", () => {
  const target = (userId: string) => ({ userId, provider: "apple_health", format: "apple-health-ndjson", contentType: "application/x-ndjson" });
  const body = () => Readable.from([Buffer.from(heartRateSampleLine(300))]);

  it("never deletes the bytes of an upload that was committed (its answer may be what got lost)", async () => {
    const { user } = await uploader();
    const tenantId = (await svc.db.user.findUniqueOrThrow({ where: { id: user } })).tenantId;
    const rawStore = fileRawStore(path.join(svc.dataDir, "raw"));
    const deps = { db: svc.db, jobs: queue, rawStore, uploads: SETTINGS };
    const upload = { ...(await beginUpload(deps, tenantId, target(user))), userId: user, provider: "apple_health", idempotencyKey: undefined };
    const stored = await rawStore.write(upload.storageKey, body(), 1024);
    await completeUpload(deps, upload, stored);
    // The commit reached the database; the request's error path runs anyway.
    await abandonUpload(deps, upload);
    expect((await svc.db.rawObject.findFirstOrThrow({ where: { id: upload.rawObjectId } })).status).not.toBe("receiving");
    expect(existsSync(rawFile(upload.storageKey))).toBe(true);
  });

  it("leaves bytes and row to the sweep when the database cannot be reached, and never throws", async () => {
    const { user } = await uploader();
    const tenantId = (await svc.db.user.findUniqueOrThrow({ where: { id: user } })).tenantId;
    const rawStore = fileRawStore(path.join(svc.dataDir, "raw"));
    const upload = await beginUpload({ db: svc.db, uploads: SETTINGS }, tenantId, target(user));
    await rawStore.write(upload.storageKey, body(), 1024);
    const unreachable = createDatabase(`postgresql://postgres@127.0.0.1:${await closedPort()}/svc`, { max: 1 });
    try {
      await abandonUpload({ db: unreachable, rawStore }, upload);
    } finally {
      await unreachable.$disconnect();
    }
    expect((await svc.db.rawObject.findFirstOrThrow({ where: { id: upload.rawObjectId } })).status).toBe("receiving");
    expect(existsSync(rawFile(upload.storageKey))).toBe(true);

    // Its heartbeat lapses (nobody beats for it): the sweep takes both.
    await waitUntil(() => heartbeatOlderThan(upload.rawObjectId, SETTINGS.sweepAfterMs), 10_000, "the heartbeat lapsed");
    await queue.send("upload-sweep", {});
    await waitUntil(async () => (await svc.db.rawObject.count({ where: { id: upload.rawObjectId } })) === 0, 10_000, "the upload swept");
    expect(existsSync(rawFile(upload.storageKey))).toBe(false);
  });
});
