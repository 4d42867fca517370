// Graceful shutdown of `node apps/server/src/main.ts` (SVC_ROLE=all) on SIGTERM: readiness
// fails at once, new connections are refused, an upload whose body is still arriving and a
// webhook delivery whose receiver has not answered both finish, then the process exits 0.
// A second signal ends a shutdown without waiting.
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import type { ServerResponse } from "node:http";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTenant } from "@svc/core";
import { createDatabase } from "@svc/db";
import { createTestDatabase, startWebhookReceiver, waitUntil } from "@svc/testing";
import { expect, it } from "vitest";
import { logLines, post, startServiceProcess, type ServiceProcess } from "../helpers/service-process.ts";
import { heartRateLine } from "../helpers/uploads.ts";
import { TEST_ENCRYPTION_KEY, deliveriesOf, insertEndpoint } from "../helpers/webhooks.ts";

interface RawResponse {
  status: number;
  body: string;
}

/** The HTTP responses read from `socket` until the server closes it (each with a Content-Length). */
async function responsesOf(socket: Socket): Promise<RawResponse[]> {
  const chunks: Buffer[] = [];
  socket.on("data", (chunk: Buffer) => chunks.push(chunk));
  await once(socket, "close");
  let rest = Buffer.concat(chunks).toString("utf8");
  const responses: RawResponse[] = [];
  while (rest.length > 0) {
    const end = rest.indexOf("\r\n\r\n");
    const head = rest.slice(0, end);
    const length = Number(/^content-length: *(\d+)$/im.exec(head)?.[1]);
    responses.push({ status: Number(head.split(" ")[1]), body: rest.slice(end + 4, end + 4 + length) });
    rest = rest.slice(end + 4 + length);
  }
  return responses;
}

it("finishes the request and the job in flight at SIGTERM, refuses new connections, exits 0; a second signal exits at once", { timeout: 90_000 }, async () => {
  const databaseUrl = await createTestDatabase();
  const db = createDatabase(databaseUrl, { max: 2 });
  const dataDir = mkdtempSync(path.join(tmpdir(), "svc-shutdown-"));
  // The receiver answers only when the test says so: until then the delivery's job runs.
  const held: ServerResponse[] = [];
  const receiver = await startWebhookReceiver((_request, response) => void held.push(response));
  const env = {
    DATABASE_URL: databaseUrl,
    SVC_DATA_DIR: dataDir,
    SVC_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
    SVC_WEBHOOK_ALLOW_PRIVATE: "true",
    SVC_SHUTDOWN_TIMEOUT_SECONDS: "60",
  };
  const services: ServiceProcess[] = [];
  try {
    const { tenant_id: tenantId, api_key: key } = await createTenant(db, "shutdown");
    const endpoint = await insertEndpoint({ db }, tenantId, receiver.url);
    const svc = await startServiceProcess(env);
    services.push(svc);
    expect((await fetch(`${svc.url}/healthz`)).status).toBe(200);
    expect(await (await fetch(`${svc.url}/readyz`)).json()).toMatchObject({ status: "ok" });

    // A tag's tag.created event: its delivery is in flight once the receiver holds it.
    const user = (await post(svc, "/v1/users", key, {})).id as string;
    await post(svc, `/v1/users/${user}/tags`, key, { kind: "illness", label: "Cold", start_at: "2026-03-01T08:00:00Z" });
    const token = (await post(svc, `/v1/users/${user}/tokens`, key, { scopes: ["upload"] })).token as string;
    await receiver.waitFor((requests) => requests.length === 1, 15_000);

    // An upload with its headers and half its body sent.
    const body = Buffer.from([heartRateLine(60, "2026-03-01T10:00:00Z"), heartRateLine(62, "2026-03-01T10:00:01Z")].join("\n"));
    const half = Math.floor(body.length / 2);
    const socket = connect(Number(new URL(svc.url).port), "127.0.0.1");
    await once(socket, "connect");
    const answers = responsesOf(socket);
    socket.write(
      `POST /v1/ingest/bluetooth HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: application/x-ndjson\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
    socket.write(body.subarray(0, half));
    await waitUntil(async () => (await db.rawObject.count({ where: { userId: user, status: "receiving" } })) === 1, 10_000, "the upload begun");

    svc.child.kill("SIGTERM");
    await waitUntil(() => logLines(svc).some((line) => String(line.msg).startsWith("shutdown: not ready")), 10_000, "the shutdown begun");
    await expect(fetch(`${svc.url}/healthz`)).rejects.toThrow();

    // The rest of the body, and a readiness probe pipelined on the same connection.
    socket.write(Buffer.concat([body.subarray(half), Buffer.from("GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")]));
    const [upload, ready] = await answers;
    expect(upload?.status, upload?.body).toBe(202);
    expect(ready?.status).toBe(503);
    expect(JSON.parse(ready!.body)).toMatchObject({ status: 503, checks: { shutdown: "fail" } });

    // The delivery's job still runs (the receiver has not answered), so the process waits for it.
    expect(svc.child.exitCode).toBeNull();
    held[0]!.writeHead(200).end();
    expect(await svc.exited, svc.output.join("")).toBe(0);

    const [delivery] = await deliveriesOf({ db }, endpoint.id);
    expect(delivery).toMatchObject({ status: "done", attemptsMade: 1 });
    expect(receiver.requests).toHaveLength(1);
    const jobs = await db.$queryRawUnsafe<Array<{ name: string; state: string; retry_count: number }>>(
      `SELECT name, state, retry_count FROM pgboss.job WHERE name IN ('webhook-deliver', 'etl-raw-object') ORDER BY name`,
    );
    // The delivery's job completed on its first try; the upload's ETL job waits for the next process.
    expect(jobs).toEqual([
      { name: "etl-raw-object", state: "created", retry_count: 0 },
      { name: "webhook-deliver", state: "completed", retry_count: 0 },
    ]);
    const messages = logLines(svc).map((line) => line.msg);
    expect(messages).toContain("shutdown: requests and jobs finished");
    expect(messages.at(-1)).toBe("svc stopped");

    // The upload was stored: the next process runs its ETL, whose data.written event the receiver holds.
    const uploadId = JSON.parse(upload!.body).upload_id as string;
    expect(await db.rawObject.findFirstOrThrow({ where: { id: uploadId } })).toMatchObject({ status: "pending", byteSize: BigInt(body.length) });
    const etl = await startServiceProcess({ ...env, SVC_ROLE: "etl" });
    services.push(etl);
    await waitUntil(async () => (await db.rawObject.findFirstOrThrow({ where: { id: uploadId } })).status === "processed", 30_000, "the ETL");
    await receiver.waitFor((requests) => requests.length === 2, 15_000);

    // A second signal does not wait for the held delivery.
    etl.child.kill("SIGTERM");
    await waitUntil(() => logLines(etl).some((line) => String(line.msg).startsWith("shutdown: not ready")), 10_000, "the etl shutdown begun");
    etl.child.kill("SIGTERM");
    expect(await etl.exited).toBe(1);
    expect(logLines(etl).map((line) => line.msg)).toContain("second signal: exiting without waiting for requests and jobs");
  } catch (error) {
    for (const svc of services) console.error(svc.output.join(""));
    throw error;
  } finally {
    for (const svc of services) await svc.stop();
    for (const response of held) response.destroy();
    await receiver.close();
    await db.$disconnect();
    rmSync(dataDir, { recursive: true, force: true });
  }
});


it("with SVC_SHUTDOWN_DELAY_SECONDS keeps answering while not ready, then closes", { timeout: 60_000 }, async () => {
  const svc = await startServiceProcess({ DATABASE_URL: await createTestDatabase(), SVC_ROLE: "api", SVC_SHUTDOWN_DELAY_SECONDS: "3" });
  try {
    svc.child.kill("SIGTERM");
    await waitUntil(() => logLines(svc).some((line) => line.msg === "shutdown: not ready, still serving while load balancers catch up"), 10_000, "the delay begun");
    // A new connection during the delay is still answered: not ready, so the load balancer moves away.
    const during = await fetch(`${svc.url}/readyz`, { headers: { connection: "close" } });
    expect(during.status).toBe(503);
    expect(await during.json()).toMatchObject({ checks: { shutdown: "fail" } });
    expect(await svc.exited).toBe(0);
    await expect(fetch(`${svc.url}/healthz`)).rejects.toThrow();
  } finally {
    await svc.stop();
  }
});
