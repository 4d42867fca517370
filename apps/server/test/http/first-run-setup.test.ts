import { request } from "node:http";
import { networkInterfaces } from "node:os";
import { createAdminKey } from "@svc/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type CallResult, type TestService } from "../helpers/test-service.ts";

// The browser first-run setup on instances with no tenant: each service here runs on a fresh
// database (startTestService copies the migrated template, which holds no tenant and no key).

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({ SVC_ROLE: "api" });
});
afterAll(() => svc?.stop());

/** A form post of the setup page, as a browser on this instance sends it (its redirect not followed). */
async function postSetup(target: TestService, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<CallResult> {
  const response = await fetch(`${target.url}/setup`, {
    method: "POST",
    body: new URLSearchParams(fields).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", origin: target.url, "sec-fetch-site": "same-origin", ...headers },
    redirect: "manual",
  });
  return { status: response.status, headers: response.headers, body: undefined, text: await response.text() };
}

/** The values the result page shows in its `<code>` elements, in order. */
const codesOf = (page: string) => [...page.matchAll(/<code[^>]*>([^<]*)<\/code>/g)].map((match) => match[1]!);

/** The result cookie a successful post sets, as the browser sends it back. */
const resultCookieOf = (answer: CallResult) => answer.headers.get("set-cookie")!.split(";")[0]!;

/** GET /setup/result as the browser follows the redirect, with the cookie of the post. */
const followResult = (target: TestService, cookie: string) => target.call("/setup/result", { headers: { cookie } });

const counts = async (target: TestService) => ({ tenants: await target.db.tenant.count(), adminKeys: await target.db.adminKey.count() });

/** A raw HTTP POST with a Host header of our choosing (fetch does not let a caller set Host). */
function postWithHost(target: TestService, host: string, options: { address?: string; body?: string } = {}): Promise<number> {
  const url = new URL(`${target.url}/setup`);
  return new Promise((resolve, reject) => {
    const body = options.body ?? "name=rebound";
    const req = request(
      { hostname: options.address ?? url.hostname, port: url.port, path: "/setup", method: "POST", headers: { host, "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

describe("GET / on an instance with no tenant", () => {
  it("offers the setup form: a labelled name field and a submit button, under the pages' strict CSP, no script", async () => {
    const page = await svc.call("/");
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(page.headers.get("content-security-policy")).toMatch(/^default-src 'none'; style-src 'sha256-[^']+'; form-action 'self'; frame-ancestors 'none'/);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.text).toContain('<form method="post" action="/setup">');
    expect(page.text).toContain('<label for="tenant-name">Tenant name</label>');
    expect(page.text).toMatch(/<input id="tenant-name" name="name"[^>]* required/);
    expect(page.text).toContain('<button type="submit">');
    expect(page.text).not.toContain("<script");
  });
});

describe("POST /setup", () => {
  it("refuses a post from another origin or site (403) and a rebound host name, creating nothing", async () => {
    expect((await postSetup(svc, { name: "evil" }, { origin: "https://evil.example", "sec-fetch-site": "cross-site" })).status).toBe(403);
    expect((await postSetup(svc, { name: "evil" }, { origin: "https://evil.example", "sec-fetch-site": "same-origin" })).status).toBe(403);
    expect((await postSetup(svc, { name: "evil" }, { origin: "null" })).status).toBe(403);
    const port = new URL(svc.url).port;
    expect(await postWithHost(svc, `evil.example:${port}`)).toBe(403);
    expect(await counts(svc)).toEqual({ tenants: 0, adminKeys: 0 });
  });

  it("refuses a rebound host name on any interface (listening on 0.0.0.0, reached through a LAN address)", async () => {
    const lan = Object.values(networkInterfaces())
      .flat()
      .find((address) => address && address.family === "IPv4" && !address.internal)?.address;
    if (!lan) return; // a machine with loopback only: the loopback case above covers it
    const wide = await startTestService({ SVC_ROLE: "api", SVC_HOST: "0.0.0.0" });
    try {
      const port = new URL(wide.url).port;
      expect(await postWithHost(wide, `evil.example:${port}`, { address: lan })).toBe(403);
      // The address itself names the instance: the post gets through to the form's checks.
      expect(await postWithHost(wide, `${lan}:${port}`, { address: lan, body: "name=" })).toBe(400);
      expect(await counts(wide)).toEqual({ tenants: 0, adminKeys: 0 });
    } finally {
      await wide.stop();
    }
  });

  it("400 with the form again for a blank or too long name, or a control character, creating nothing", async () => {
    for (const name of ["", "   ", "x".repeat(101), "a\u0000b", "tab\there"]) {
      const answer = await postSetup(svc, { name });
      expect(answer.status, name).toBe(400);
      expect(answer.text).toContain('role="alert"');
      expect(answer.text).toContain('action="/setup"');
    }
    expect((await postSetup(svc, {})).status).toBe(400);
    expect(await counts(svc)).toEqual({ tenants: 0, adminKeys: 0 });
  });

  it("creates the first tenant and an admin key, redirects (303) to the page that shows both once (no-store), and both keys work", async () => {
    const posted = await postSetup(svc, { name: "  Acme Health  " });
    // Post/Redirect/Get: the keys are not in the post's answer, nor in its Location.
    expect(posted.status, posted.text).toBe(303);
    expect(posted.headers.get("location")).toBe("/setup/result");
    expect(posted.headers.get("cache-control")).toBe("no-store");
    expect(posted.text).not.toMatch(/svc_(sk|ak)_/);
    const setCookie = posted.headers.get("set-cookie")!;
    expect(setCookie).toMatch(/^svc_setup_result=[A-Za-z0-9_-]{43}; Max-Age=600; Path=\/setup\/result; Expires=[^;]+; HttpOnly; SameSite=Strict$/);

    const answer = await followResult(svc, resultCookieOf(posted));
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.headers.get("content-security-policy")).toContain("default-src 'none'");
    expect(answer.headers.get("content-security-policy")).toMatch(/script-src 'sha256-[^']+'$/);
    expect(answer.text).toContain("shown only this once");
    expect(answer.text).toContain('href="/console"');
    const [tenantId, apiKey, adminKey] = codesOf(answer.text);
    expect(tenantId).toMatch(/^[0-9a-f-]{36}$/);
    expect(apiKey).toMatch(/^svc_sk_/);
    expect(adminKey).toMatch(/^svc_ak_/);

    const tenants = await svc.db.tenant.findMany({ select: { id: true, name: true } });
    expect(tenants).toEqual([{ id: tenantId, name: "Acme Health" }]);
    const adminKeys = await svc.db.adminKey.findMany({ select: { name: true, keyHash: true } });
    expect(adminKeys).toHaveLength(1);
    expect(adminKeys[0]!.name).toBe("first-run");
    expect(adminKeys[0]!.keyHash).not.toContain(adminKey!);

    const users = await svc.call("/v1/users", { key: apiKey });
    expect(users.status, users.text).toBe(200);
    const asAdmin = await svc.call("/v1/admin/tenants", { key: adminKey });
    expect(asAdmin.status, asAdmin.text).toBe(200);
    expect(asAdmin.body.data.map((t: { id: string }) => t.id)).toEqual([tenantId]);

    // The keys are shown nowhere else: not in the logs, not in the landing page.
    const logs = svc.logs.join("\n");
    expect(logs).not.toContain(apiKey);
    expect(logs).not.toContain(adminKey);
    const landing = await svc.call("/");
    expect(landing.text).not.toContain(apiKey);

    // Shown once: the same cookie again (a reload, a replay) shows no key; the cookie is cleared.
    const again = await followResult(svc, resultCookieOf(posted));
    expect(again.status).toBe(200);
    expect(again.text).toContain("The keys were shown once");
    expect(codesOf(again.text).filter((code) => /^svc_/.test(code))).toEqual([]);
    expect(again.headers.get("set-cookie")).toMatch(/^svc_setup_result=; Path=\/setup\/result; Expires=Thu, 01 Jan 1970/);
    expect((await svc.call("/setup/result")).text).toContain("The keys were shown once");
  });

  it("GET / then is a landing page without a form, linking to the console and the API description", async () => {
    const page = await svc.call("/");
    expect(page.status).toBe(200);
    expect(page.text).not.toContain("<form");
    expect(page.text).toContain("Setup is done");
    expect(page.text).toContain('href="/console"');
    expect(page.text).toContain('href="/openapi.yaml"');
  });

  it("a second post is 409 (already set up) and creates nothing", async () => {
    const before = await counts(svc);
    const answer = await postSetup(svc, { name: "second" });
    expect(answer.status).toBe(409);
    expect(answer.headers.get("content-type")).toContain("text/html");
    expect(answer.text).toContain("Already set up");
    expect(codesOf(answer.text)).toEqual([]);
    expect((await postSetup(svc, { name: "" })).status).toBe(409);
    expect(await counts(svc)).toEqual(before);
  });
});

describe("the result cookie behind a proxy ending TLS", () => {
  let proxied: TestService;
  beforeAll(async () => {
    proxied = await startTestService({ SVC_ROLE: "api", SVC_PUBLIC_URL: "https://svc.example.test" });
  });
  afterAll(() => proxied?.stop());

  it("is Secure when the browser came by the public https URL", async () => {
    const url = new URL(proxied.url);
    const setCookie = await new Promise<string>((resolve, reject) => {
      const body = "name=Proxied";
      const req = request(
        {
          hostname: url.hostname,
          port: url.port,
          path: "/setup",
          method: "POST",
          headers: { host: "svc.example.test", origin: "https://svc.example.test", "content-type": "application/x-www-form-urlencoded", "content-length": Buffer.byteLength(body) },
        },
        (res) => {
          res.resume();
          res.on("end", () => (res.statusCode === 303 ? resolve(String(res.headers["set-cookie"])) : reject(new Error(`status ${res.statusCode}`))));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
    expect(setCookie).toMatch(/; Secure; SameSite=Strict$/);
  });
});

describe("racing setups", () => {
  let fresh: TestService;
  beforeAll(async () => {
    fresh = await startTestService({ SVC_ROLE: "api" });
  });
  afterAll(() => fresh?.stop());

  it("create exactly one tenant; with an admin key already there, none is minted", async () => {
    const existing = await createAdminKey(fresh.db, "from the cli");
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => postSetup(fresh, { name: `racer ${i}` })));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([303, 409, 409, 409, 409, 409]);
    expect(await counts(fresh)).toEqual({ tenants: 1, adminKeys: 1 });
    const winner = await followResult(fresh, resultCookieOf(answers.find((answer) => answer.status === 303)!));
    const codes = codesOf(winner.text);
    expect(codes).toHaveLength(2);
    expect(winner.text).toContain("already had an admin key");
    expect((await fresh.call("/v1/users", { key: codes[1] })).status).toBe(200);
    expect((await fresh.call("/v1/admin/tenants", { key: existing.admin_key })).body.data).toHaveLength(1);
  });
});
