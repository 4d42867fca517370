import { setTenantProviderSwitch } from "@svc/core";
import { browserAvailable, launchBrowser, replies, saveScreenshot, startWebhookReceiver, type WebhookReceiver } from "@svc/testing";
import { setupServer } from "msw/node";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONSENT_CATALOG, FakeTestfit, TESTFIT_ENV } from "../helpers/consent-provider.ts";
import { createUser } from "../helpers/records.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";

// Connect sessions: POST /v1/users/{id}/connect-sessions makes a link to the hosted connect
// page, whose buttons start the same consent as the API. The page and the consent result
// page are exercised in headless Chromium.

const provider = new FakeTestfit();
const msw = setupServer(...provider.handlers());

let svc: TestService;
let key: string;

beforeAll(async () => {
  msw.listen({ onUnhandledRequest: "bypass" });
  svc = await startTestService(TESTFIT_ENV, { providers: CONSENT_CATALOG });
  key = (await svc.createTenant()).api_key;
});
afterAll(async () => {
  await svc?.stop();
  msw.close();
});

async function session(userId: string, body: Record<string, unknown> = {}, apiKey = key) {
  return svc.call(`/v1/users/${userId}/connect-sessions`, { key: apiKey, body });
}

const tokenOf = (url: string) => new URL(url).pathname.split("/")[2]!;

describe("POST /v1/users/{id}/connect-sessions", () => {
  it("answers a link to the hosted page and when it expires (default an hour), shown once", async () => {
    const user = await createUser(svc, key);
    const answer = await session(user);
    expect(answer.status, answer.text).toBe(201);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    expect(answer.body.url).toMatch(new RegExp(`^${svc.url}/connect/[A-Za-z0-9_-]{43}$`));
    const lifetime = Date.parse(answer.body.expires_at) - Date.now();
    expect(lifetime).toBeGreaterThan(3590_000);
    expect(lifetime).toBeLessThanOrEqual(3600_000);
    const [row] = await svc.db.connectSession.findMany({ where: { userId: user } });
    expect(row!.tokenHash).not.toContain(tokenOf(answer.body.url));
  });

  it("takes expires_in_seconds from 60 to 86400 and the redirect_uri rules; 404 for another tenant's user", async () => {
    const user = await createUser(svc, key);
    const day = await session(user, { expires_in_seconds: 86_400, redirect_uri: "http://localhost:3000/done" });
    expect(day.status, day.text).toBe(201);
    expect(Date.parse(day.body.expires_at) - Date.now()).toBeGreaterThan(86_300_000);
    expect((await session(user, { expires_in_seconds: 59 })).status).toBe(400);
    expect((await session(user, { expires_in_seconds: 86_401 })).status).toBe(400);
    expect((await session(user, { redirect_uri: "http://app.example.com/done" })).status).toBe(400);
    expect((await session(user, { providers: ["testfit"] })).status).toBe(400);
    expect((await session(user, {}, (await svc.createTenant()).api_key)).status).toBe(404);
  });
});

describe("GET /connect/{token} and POST /connect/{token}/{provider}", () => {
  it("lists the available OAuth and push providers with the user's status, and no device provider", async () => {
    const user = await createUser(svc, key);
    const { url } = (await session(user)).body;
    const response = await fetch(url);
    expect(response.status).toBe(200);
    const page = await response.text();
    expect(page).toContain("Connect your health data");
    expect(page).toContain("Testfit");
    expect(page).toContain("Not connected");
    // No keys on this instance: not offered. Device providers: uploaded by the app, not connected.
    expect(page).not.toContain("Keyless");
    expect(page).not.toContain("Apple Health");
    const csp = response.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toMatch(/form-action 'self' [^;]*https:\/\/testfit\.test/);
    expect(response.headers.get("referrer-policy")).toBe("same-origin");
    expect(response.headers.get("cache-control")).toBe("no-store");
    // The token is never logged.
    expect(svc.logs.join("\n")).not.toContain(tokenOf(url));
  });

  it("leaves out a provider switched off for the tenant", async () => {
    const tenant = await svc.createTenant();
    const user = await createUser(svc, tenant.api_key);
    const { url } = (await session(user, {}, tenant.api_key)).body;
    await setTenantProviderSwitch(svc.db, tenant.tenant_id, "testfit", false);
    // The switch reaches the page within the provider configuration's cache time (10 s).
    const start = Date.now();
    let page = "";
    while (Date.now() - start < 15_000) {
      page = await (await fetch(url)).text();
      if (!page.includes("Testfit")) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    expect(page).not.toContain("Testfit");
  });

  it("is 404 for an unknown link, 410 for an expired one", async () => {
    expect((await fetch(`${svc.url}/connect/not-a-token`)).status).toBe(404);
    expect((await fetch(`${svc.url}/connect/${"A".repeat(43)}`)).status).toBe(404);
    const user = await createUser(svc, key);
    const { url } = (await session(user)).body;
    await svc.db.connectSession.updateMany({ where: { userId: user }, data: { expiresAt: new Date(Date.now() - 1000) } });
    const expired = await fetch(url);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain("This link expired");
    expect((await fetch(`${url}/testfit`, { method: "POST", redirect: "manual" })).status).toBe(410);
  });

  it("a Connect post from the page redirects (303) to the provider; from another origin it is 403", async () => {
    const user = await createUser(svc, key);
    const { url } = (await session(user, { redirect_uri: "https://app.example.com/done" })).body;
    const posted = await fetch(`${url}/testfit`, { method: "POST", redirect: "manual", headers: { origin: svc.url } });
    expect(posted.status).toBe(303);
    const authorize = new URL(posted.headers.get("location")!);
    expect(authorize.origin).toBe("https://testfit.test");
    expect(authorize.searchParams.get("redirect_uri")).toBe(`${svc.url}/oauth/testfit/callback`);
    // The consent ends at the session's redirect_uri.
    const { code, state } = provider.consent(authorize.href);
    const back = await fetch(`${svc.url}/oauth/testfit/callback?${new URLSearchParams({ code, state })}`, { redirect: "manual" });
    expect(back.headers.get("location")).toBe("https://app.example.com/done?status=connected&provider=testfit");

    expect((await fetch(`${url}/testfit`, { method: "POST", redirect: "manual", headers: { origin: "https://evil.example" } })).status).toBe(403);
    expect((await fetch(`${url}/testfit`, { method: "POST", redirect: "manual", headers: { "sec-fetch-site": "cross-site" } })).status).toBe(403);
    // A provider that cannot be connected: the page again, with the reason.
    const device = await fetch(`${url}/apple_health`, { method: "POST", redirect: "manual", headers: { origin: svc.url } });
    expect(device.status).toBe(400);
    expect(await device.text()).toContain("device provider");
  });
});

describe.runIf(browserAvailable())("in headless Chromium", () => {
  let browser: Browser;
  // The browser follows the 303 to the provider's consent page for real: a local page
  // plays it (SVC_TESTFIT_AUTHORIZE_URL), since a route handler does not see redirects.
  let consentPage: WebhookReceiver;
  let browserSvc: TestService;
  beforeAll(async () => {
    consentPage = await startWebhookReceiver(replies.status(200, "<!doctype html><title>Testfit consent</title><h1>Allow access?</h1>", { "content-type": "text/html" }));
    browserSvc = await startTestService(
      { ...TESTFIT_ENV, SVC_TESTFIT_AUTHORIZE_URL: `http://127.0.0.1:${consentPage.port}/oauth/authorize` },
      { providers: CONSENT_CATALOG },
    );
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await browserSvc?.stop();
    await consentPage?.close();
  });

  it("the connect page: landmarks, statuses, keyboard focus, Connect goes to the provider; the result page after consent", async () => {
    const svc = browserSvc;
    const key = (await svc.createTenant()).api_key;
    const user = await createUser(svc, key);
    const { url } = (await svc.call(`/v1/users/${user}/connect-sessions`, { key, body: {} })).body;
    const context = await browser.newContext();
    const page = await context.newPage();
    const cspViolations: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") cspViolations.push(message.text());
    });
    await page.goto(url);
    expect(await page.title()).toBe("Connect your health data");
    expect(await page.locator("main").count()).toBe(1);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Connect your health data");
    const list = page.getByRole("list", { name: "Services" });
    expect(await list.getByRole("listitem").filter({ hasText: "Testfit" }).count()).toBe(1);
    expect(await page.locator("#status-testfit").textContent()).toBe("Not connected");
    const button = page.getByRole("button", { name: "Connect Testfit" });
    expect(await button.isVisible()).toBe(true);
    // The style sheet applies under the page's CSP (buttons are styled, nothing refused).
    expect(await button.evaluate((element) => (globalThis as any).getComputedStyle(element).borderRadius)).not.toBe("0px");
    await saveScreenshot(page, "connect-page");

    // Tab by tab through the buttons (other providers of the build come first) to Testfit's.
    const labels: string[] = [];
    for (let i = 0; i < 20 && labels.at(-1) !== "Connect Testfit"; i++) {
      await page.keyboard.press("Tab");
      labels.push(((await page.evaluate("document.activeElement?.getAttribute('aria-label')")) as string | null) ?? "");
    }
    expect(labels.at(-1)).toBe("Connect Testfit");
    expect(labels.every((label) => /^(Connect|Reconnect) /.test(label))).toBe(true);
    expect(await button.evaluate((element) => (globalThis as any).getComputedStyle(element).outlineStyle)).toBe("solid");
    await saveScreenshot(page, "connect-page-focus");
    await Promise.all([page.waitForURL(`http://127.0.0.1:${consentPage.port}/**`), page.keyboard.press("Enter")]);
    expect(await page.title()).toBe("Testfit consent");
    const authorize = new URL(page.url());
    expect(authorize.pathname).toBe("/oauth/authorize");
    // No Referer reaches the provider (the connect link's token is in the page's path).
    const authorizeRequest = consentPage.requests.find((request) => request.url.startsWith("/oauth/authorize"));
    expect(authorizeRequest!.headers.referer).toBeUndefined();
    expect(authorize.searchParams.get("client_id")).toBe("testfit-client-id");
    expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");

    // The user allows access; the provider sends the browser to the callback: no redirect_uri, the result page.
    const { code, state } = provider.consent(authorize.href);
    const result = await page.goto(`${svc.url}/oauth/testfit/callback?${new URLSearchParams({ code, state })}`);
    expect(result!.status()).toBe(200);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Connected to Testfit");
    expect(await page.getByRole("status").textContent()).toContain("is connected");
    expect(await page.getByText("You can close this window.").isVisible()).toBe(true);
    await saveScreenshot(page, "consent-result-connected");

    // The same link again: connected, with a Reconnect button.
    await page.goto(url);
    expect(await page.locator("#status-testfit").textContent()).toBe("Connected");
    expect(await page.getByRole("button", { name: "Reconnect Testfit" }).isVisible()).toBe(true);

    // A used state: the error page.
    await page.goto(`${svc.url}/oauth/testfit/callback?${new URLSearchParams({ code, state })}`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Could not connect Testfit");
    expect(await page.getByRole("alert").textContent()).toContain("already used");
    await saveScreenshot(page, "consent-result-error");
    expect(cspViolations.filter((text) => text.includes("Content Security Policy"))).toEqual([]);
    await context.close();
  });
});
