// SSRF regression tests of the one URL a tenant gives that the server later fetches: the
// webhook endpoint URL (connect redirect_uri values only redirect the user's browser; their
// rules are in connections.test.ts and connect-pages.test.ts). Creation and change refuse
// private, loopback and link-local targets in every spelling; the delivery worker refuses them
// again after resolving (an endpoint written before a rule, or a name whose address changed),
// and the receiver never sees a request. Redirects are not followed: webhook-delivery.test.ts.
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

/** Private, loopback, link-local and other non-public targets, in the spellings URL parsers accept. */
const REFUSED_URLS = [
  "https://127.0.0.1/hook",
  "https://127.1/hook",
  "https://2130706433/hook", // decimal 127.0.0.1
  "https://0177.0.0.1/hook", // octal
  "https://0x7f.0.0.1/hook", // hex
  "https://0x7f000001/hook",
  "https://0.0.0.0/hook",
  "https://localhost/hook",
  "https://LOCALHOST./hook",
  "https://hooks.localhost/hook",
  "https://169.254.169.254/latest/meta-data/", // cloud metadata (link-local)
  "https://2852039166/latest/meta-data/", // 169.254.169.254 as a decimal
  "https://10.0.0.1/hook",
  "https://172.16.5.4/hook",
  "https://192.168.1.1/hook",
  "https://100.64.0.1/hook", // carrier-grade NAT
  "https://[::1]/hook",
  "https://[::]/hook",
  "https://[::ffff:127.0.0.1]/hook",
  "https://[::ffff:7f00:1]/hook",
  "https://[::ffff:169.254.169.254]/hook",
  "https://[fe80::1]/hook",
  "https://[fd00::1]/hook",
  "https://[64:ff9b::7f00:1]/hook", // NAT64 of 127.0.0.1
  "https://[2002:7f00:1::]/hook", // 6to4 of 127.0.0.1
  "http://hooks.example.com/hook",
  "https://user:pass@hooks.example.com/hook",
  "file:///etc/passwd",
  "gopher://hooks.example.com/",
];

let svc: TestService;
let key: string;
let tenantId: string;

beforeAll(async () => {
  svc = await startTestService({ SVC_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY }, { webhookSchedule: schedule });
  const tenant = await svc.createTenant();
  key = tenant.api_key;
  tenantId = tenant.tenant_id;
});
afterAll(() => svc?.stop());

describe("webhook URLs at creation and change", () => {
  it("refuses every private, loopback or link-local spelling with a 400 and stores nothing", async () => {
    for (const url of REFUSED_URLS) {
      const answer = await svc.call("/v1/webhooks", { key, body: { url } });
      expect(answer.status, `${url}: ${answer.text}`).toBe(400);
      expect(answer.headers.get("content-type")).toContain("application/problem+json");
    }
    expect(await svc.db.webhookEndpoint.count({ where: { tenantId } })).toBe(0);
  });

  it("refuses the same URLs on PATCH and keeps the old URL", async () => {
    const created = await svc.call("/v1/webhooks", { key, body: { url: "https://hooks.example.com/svc" } });
    expect(created.status, created.text).toBe(201);
    for (const url of REFUSED_URLS) {
      const answer = await svc.call(`/v1/webhooks/${created.body.id}`, { key, method: "PATCH", body: { url } });
      expect(answer.status, `${url}: ${answer.text}`).toBe(400);
    }
    expect((await svc.call(`/v1/webhooks/${created.body.id}`, { key })).body.url).toBe("https://hooks.example.com/svc");
  });
});

describe("the delivery worker", () => {
  let jobs: JobQueue;
  let target: WebhookReceiver;
  beforeAll(async () => {
    jobs = await startTestQueue(svc);
    target = await startWebhookReceiver();
  });
  afterAll(async () => {
    await target?.close();
    await jobs?.stop();
  });

  it("refuses loopback reached by decimal, octal, hex and short forms, and IPv6 ::1, before sending a byte (names resolving to loopback: webhook-delivery-ssrf.test.ts)", async () => {
    const other = (await svc.createTenant()).tenant_id;
    const port = target.port;
    // Written straight into the database, as if the rules at creation had been passed (an old row, a changed DNS answer).
    const urls = [
      `https://2130706433:${port}/hook`,
      `https://0177.0.0.1:${port}/hook`,
      `https://0x7f.0.0.1:${port}/hook`,
      `https://127.1:${port}/hook`,
      `https://[::1]:${port}/hook`,
    ];
    const endpoints = await Promise.all(urls.map((url) => insertEndpoint(svc, other, url)));
    await emit(svc, jobs, testEvent(other));

    for (const [index, endpoint] of endpoints.entries()) {
      let rows = await deliveriesOf(svc, endpoint.id);
      await waitUntil(async () => (rows = await deliveriesOf(svc, endpoint.id)).every((row) => row.status === "parked"), 30_000, urls[index]);
      expect(rows, urls[index]).toHaveLength(1);
      expect(rows[0], urls[index]).toMatchObject({ attempts: 8, lastStatusCode: null, lastError: ADDRESS_NOT_ALLOWED });
      for (const attempt of await attemptsOf(svc, rows[0]!.id)) expect(attempt, urls[index]).toMatchObject({ statusCode: null, error: ADDRESS_NOT_ALLOWED });
    }
    expect(target.requests).toHaveLength(0);
  });
});
