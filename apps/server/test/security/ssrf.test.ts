// SSRF regression tests of the one URL a tenant gives that the server later fetches: the
// webhook endpoint URL (connect redirect_uri values only redirect the user's browser; their
// rules are in connections.test.ts and connect-pages.test.ts). Creation and change refuse
// private, loopback and link-local targets in every spelling; the delivery worker refuses them
// again after resolving, in every spelling too (webhook-delivery-ssrf.test.ts), and the receiver
// never sees a request. Redirects are not followed: webhook-delivery.test.ts.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { TEST_ENCRYPTION_KEY } from "../helpers/webhooks.ts";

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
  svc = await startTestService({ SVC_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY });
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

