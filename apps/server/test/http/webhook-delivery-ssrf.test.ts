// The delivery worker of a service without SVC_WEBHOOK_ALLOW_PRIVATE: an endpoint that
// reaches a loopback address (by IP in any spelling, by a DNS name, as IPv4-mapped IPv6) fails every attempt
// with "address not allowed", and the receiver never sees a request.
import { ADDRESS_NOT_ALLOWED, type DeliverySchedule } from "@svc/core";
import type { JobQueue } from "@svc/jobs";
import { startWebhookReceiver, waitUntil, type WebhookReceiver } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { TEST_ENCRYPTION_KEY, attemptsOf, deliveriesOf, emit, insertEndpoint, startTestQueue, testEvent } from "../helpers/webhooks.ts";

const schedule: DeliverySchedule = {
  retryDelaysMs: [0, 0, 0, 0, 0, 0, 0],
  timeoutMs: 2_000,
  disableAfterMs: 60 * 60_000,
  keepFinishedMs: 24 * 60 * 60_000,
  historyKept: 20,
  waitingReplaysMax: 10,
};

let svc: TestService;
let jobs: JobQueue;
let target: WebhookReceiver;

beforeAll(async () => {
  svc = await startTestService({ SVC_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY }, { webhookSchedule: schedule });
  jobs = await startTestQueue(svc);
  target = await startWebhookReceiver();
});
afterAll(async () => {
  await target?.close();
  await jobs?.stop();
  await svc?.stop();
});

describe("without SVC_WEBHOOK_ALLOW_PRIVATE", () => {
  it("refuses loopback by IP in any spelling, by DNS name and as IPv4-mapped IPv6, after connecting and before sending", async () => {
    const tenantId = (await svc.createTenant()).tenant_id;
    const urls = [
      `https://127.0.0.1:${target.port}/hook`,
      `https://localhost:${target.port}/hook`,
      `https://[::ffff:127.0.0.1]:${target.port}/hook`,
      `http://127.0.0.1:${target.port}/hook`,
      // Written straight into the database, as if the rules at creation had been passed: every spelling of loopback.
      `https://2130706433:${target.port}/hook`,
      `https://0177.0.0.1:${target.port}/hook`,
      `https://0x7f.0.0.1:${target.port}/hook`,
      `https://127.1:${target.port}/hook`,
      `https://[::1]:${target.port}/hook`,
    ];
    const endpoints = await Promise.all(urls.map((url) => insertEndpoint(svc, tenantId, url)));
    await emit(svc, jobs, testEvent(tenantId));

    for (const [index, endpoint] of endpoints.entries()) {
      let rows = await deliveriesOf(svc, endpoint.id);
      await waitUntil(async () => (rows = await deliveriesOf(svc, endpoint.id)).every((row) => row.status === "parked"), 30_000, urls[index]);
      expect(rows, urls[index]).toHaveLength(1);
      expect(rows[0], urls[index]).toMatchObject({ attempts: 8, lastStatusCode: null, lastError: ADDRESS_NOT_ALLOWED });
      const history = await attemptsOf(svc, rows[0]!.id);
      expect(history).toHaveLength(8);
      for (const attempt of history) expect(attempt).toMatchObject({ statusCode: null, error: ADDRESS_NOT_ALLOWED, responseBodyExcerpt: null });
    }
    // The guard connected (it checks the socket's address), then closed before a byte was sent.
    expect(target.connections).toBeGreaterThan(0);
    expect(target.requests).toHaveLength(0);
  });
});
