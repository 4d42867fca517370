import { browserAvailable, saveScreenshot } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { openConsoleBrowser, type ConsoleBrowser } from "./console-browser.ts";

/** The browser first-run setup of an empty instance, then the console signed in with the key it showed. */
describe.runIf(browserAvailable())("console: first-run setup in the browser", () => {
  let service: TestService;
  let browser: ConsoleBrowser;

  beforeAll(async () => {
    service = await startTestService();
    browser = await openConsoleBrowser(service.url);
  });
  afterAll(async () => {
    await browser?.close();
    await service?.stop();
  });

  it("creates the first tenant, shows its keys once, and the admin key signs in to the console", async () => {
    const { page } = browser;
    await page.goto(`${service.url}/`);
    await browser.expectAccessible("the first-run setup page");
    await saveScreenshot(page, "console-first-run-form");
    await page.getByLabel("Tenant name").fill("Acme Health");
    await page.getByRole("button", { name: "Create the first tenant" }).click();
    await page.getByRole("heading", { name: "Your instance is set up" }).waitFor();
    await browser.expectAccessible("the first-run result page");
    const [tenantId, tenantKey, adminKey] = await page.locator("dd code").allInnerTexts();
    expect(tenantKey).toMatch(/^svc_sk_/);
    expect(adminKey).toMatch(/^svc_ak_/);
    await saveScreenshot(page, "console-first-run-keys");

    // The tenant key works on the tenant routes at once.
    expect((await service.call("/v1/users", { key: tenantKey })).status).toBe(200);

    // Shown once: the root page now offers no setup, and a second post is refused.
    await page.goto(`${service.url}/`);
    expect(await page.getByLabel("Tenant name").count()).toBe(0);

    await page.goto(`${service.url}/`);
    await page.getByRole("link", { name: "Open the admin console" }).click();
    await page.getByLabel("Admin key").fill(adminKey ?? "");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("button", { name: "Sign out" }).waitFor();
    await page.getByRole("link", { name: "Acme Health" }).waitFor();
    expect(await page.content()).toContain(tenantId);
    await saveScreenshot(page, "console-first-run-signed-in");
    // The keys never came back from the server after the setup page.
    const later = browser.answers.slice(browser.answers.findIndex((text) => text.includes("Your instance is set up")) + 1);
    for (const text of later) {
      expect(text).not.toContain(tenantKey);
      expect(text).not.toContain(adminKey);
    }
  });
});
