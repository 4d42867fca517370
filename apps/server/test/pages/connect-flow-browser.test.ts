import { browserAvailable, launchBrowser, saveScreenshot } from "@svc/testing";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../helpers/records.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { openPage, type ViewportName } from "./page-browser.ts";

// The connect flow as a person goes through it, with the built-in demo provider playing the
// provider: the connect page and the consent page name the app asking (the tenant), a Deny
// ends on a page with a way to try again, a success on a page that leads back to connect
// another service. At a desktop and a phone size, axe on every page, no request failing.

describe.runIf(browserAvailable())("the connect flow in Chromium", () => {
  let svc: TestService;
  let browser: Browser;

  beforeAll(async () => {
    svc = await startTestService();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
  });

  async function connectLink(tenantName: string, body: Record<string, unknown> = {}) {
    const tenant = await svc.createTenant(tenantName);
    const user = await createUser(svc, tenant.api_key);
    const answer = await svc.call(`/v1/users/${user}/connect-sessions`, { key: tenant.api_key, body });
    expect(answer.status, answer.text).toBe(201);
    return { url: answer.body.url as string, user, key: tenant.api_key };
  }

  for (const viewport of ["desktop", "phone"] as ViewportName[]) {
    it(`names the app, lets a denied consent try again, and leads back after success (${viewport})`, async () => {
      const { url } = await connectLink("Acme Health");
      const ui = await openPage(browser, viewport);
      const { page } = ui;

      await page.goto(url);
      await page.getByText("Acme Health asks you to connect the services that hold your health data").waitFor();
      await ui.expectAccessible("the connect page");
      await ui.expectFitsWidth("the connect page");
      await saveScreenshot(page, `connect-flow-${viewport}-1-connect`);

      // The demo provider's consent page names the app too.
      await page.getByRole("button", { name: "Connect Demo" }).click();
      await page.getByRole("heading", { level: 1, name: "Share demo data with Acme Health?" }).waitFor();
      expect(await page.getByText("Acme Health asks to read the data of a made-up demo person").isVisible()).toBe(true);
      await ui.expectAccessible("the consent page");
      await ui.expectFitsWidth("the consent page");
      await saveScreenshot(page, `connect-flow-${viewport}-2-consent`);

      // Deny: a plain page that says what happened, and a way to try again.
      await page.getByRole("button", { name: "Deny" }).click();
      await page.getByRole("heading", { level: 1, name: "Demo was not connected" }).waitFor();
      expect(await page.getByRole("status").textContent()).toBe("You did not allow access at Demo, so nothing was shared with Acme Health.");
      await ui.expectAccessible("the denied result page");
      await ui.expectFitsWidth("the denied result page");
      await saveScreenshot(page, `connect-flow-${viewport}-3-denied`);

      // Try again: back on the same connect page, then Allow this time.
      await page.getByRole("link", { name: "Try again" }).click();
      await page.waitForURL(url);
      expect(await page.locator("#status-demo").textContent()).toBe("Not connected");
      await page.getByRole("button", { name: "Connect Demo" }).click();
      await page.getByRole("button", { name: "Allow" }).click();
      await page.getByRole("heading", { level: 1, name: "Connected to Demo" }).waitFor();
      expect(await page.getByRole("status").textContent()).toContain("Your Demo account is connected to Acme Health.");
      await ui.expectAccessible("the connected result page");
      await ui.expectFitsWidth("the connected result page");
      await saveScreenshot(page, `connect-flow-${viewport}-4-connected`);

      // Connect another service: the same connect page, Demo now connected.
      await page.getByRole("link", { name: "Connect another service" }).click();
      await page.waitForURL(url);
      expect(await page.locator("#status-demo").textContent()).toBe("Connected");
      expect(ui.problems).toEqual([]);
      await ui.close();
    });
  }

  it("once the connect link expired, the result page says to ask the app for a new link", async () => {
    const { url, user } = await connectLink("Beta Clinic");
    const ui = await openPage(browser, "phone");
    const { page } = ui;
    await page.goto(url);
    await page.getByRole("button", { name: "Connect Demo" }).click();
    await page.getByRole("button", { name: "Deny" }).waitFor();
    await svc.db.connectSession.updateMany({ where: { userId: user }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await page.getByRole("button", { name: "Deny" }).click();
    await page.getByRole("heading", { level: 1, name: "Demo was not connected" }).waitFor();
    expect(await page.getByRole("link", { name: "Try again" }).count()).toBe(0);
    await page.getByText("This connect link is no longer valid. To try again, ask the app that sent you here for a new link.").waitFor();
    await ui.expectAccessible("the result page of an expired link");
    expect(ui.problems).toEqual([]);
    await ui.close();
  });

  it("a consent started by the API (no connect link, no redirect_uri): a Deny says to start again in the app", async () => {
    const tenant = await svc.createTenant("Gamma Fitness");
    const user = await createUser(svc, tenant.api_key);
    const started = await svc.call(`/v1/users/${user}/connections/demo`, { key: tenant.api_key, body: {} });
    expect(started.status, started.text).toBe(200);
    const state = new URL(started.body.authorize_url).searchParams.get("state")!;
    const consent = await (await fetch(started.body.authorize_url)).text();
    expect(consent).toContain("Share demo data with Gamma Fitness?");
    const denied = await fetch(`${svc.url}/oauth/demo/callback?${new URLSearchParams({ error: "access_denied", state })}`, { redirect: "manual" });
    expect(denied.status).toBe(200);
    const page = await denied.text();
    expect(page).toContain("Demo was not connected");
    expect(page).toContain("To try again, go back to the app that sent you here and start again.");
    expect(page).not.toContain("/connect/");
  });

  it("a tenant with a blank name: the pages speak of the app that sent the person", async () => {
    const { url } = await connectLink("   ");
    const page = await (await fetch(url)).text();
    expect(page).toContain("The app that sent you here asks you to connect");
  });
});
