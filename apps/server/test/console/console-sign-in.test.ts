import { createAdminKey } from "@svc/core";
import { browserAvailable, saveScreenshot } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { openConsoleBrowser, type ConsoleBrowser } from "./console-browser.ts";

describe.runIf(browserAvailable())("console: serving and sign in", () => {
  let service: TestService;
  let console_: ConsoleBrowser;
  let adminKey: string;

  beforeAll(async () => {
    service = await startTestService();
    adminKey = (await createAdminKey(service.db, "console test")).admin_key;
    console_ = await openConsoleBrowser(service.url);
  });
  afterAll(async () => {
    await console_?.close();
    await service?.stop();
  });

  it("serves the app with a CSP that allows only this instance", async () => {
    const response = await fetch(`${service.url}/console/tenants/x`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(response.headers.get("content-security-policy")).toContain("connect-src 'self'");
    const html = await response.text();
    const scripts = [...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) expect(src).toMatch(/^\/console\/assets\//);
    expect((await fetch(`${service.url}/console/assets/missing.js`)).status).toBe(404);
  });

  it("refuses a key that is not an instance admin key", async () => {
    const tenant = await service.createTenant();
    const { page } = console_;
    await page.goto(`${service.url}/console/`);
    await console_.expectAccessible("the sign-in page");
    await page.getByLabel("Admin key").fill(tenant.api_key);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").getByText("not a valid instance admin key").waitFor();
    await saveScreenshot(page, "console-sign-in-refused");
  });

  it("signs in, keeps the key out of storage, and signs out on reload", async () => {
    const { page } = console_;
    await console_.signIn(adminKey);
    await page.getByRole("navigation", { name: "Sections" }).getByText("Tenants").waitFor();
    await saveScreenshot(page, "console-signed-in");
    const stored = await page.evaluate<string>("JSON.stringify({ local: { ...localStorage }, session: { ...sessionStorage }, cookie: document.cookie })");
    expect(stored).not.toContain(adminKey);
    await page.reload();
    await page.getByLabel("Admin key").waitFor();
  });
});
