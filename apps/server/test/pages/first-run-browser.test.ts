import { browserAvailable, launchBrowser, saveScreenshot } from "@svc/testing";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { openPage, type PageUnderTest, type ViewportName } from "./page-browser.ts";

// The first-run setup of an empty instance in Chromium, at a desktop and a phone size: the keys
// fit the window and have copy buttons, and a reload of the result neither posts the form again
// nor shows the keys a second time.

describe.runIf(browserAvailable())("the first-run setup in Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  /** A fresh instance (no tenant yet) and a browser page at the viewport. */
  async function freshInstance(viewport: ViewportName, options: { javaScriptEnabled?: boolean } = {}): Promise<{ svc: TestService; ui: PageUnderTest }> {
    const svc = await startTestService({ SVC_ROLE: "api" });
    const ui = await openPage(browser, viewport, options);
    return { svc, ui };
  }

  async function submitSetup(ui: PageUnderTest, svc: TestService): Promise<void> {
    await ui.page.goto(`${svc.url}/`);
    await ui.page.getByLabel("Tenant name").fill("Acme Health");
    await ui.page.getByRole("button", { name: "Create the first tenant" }).click();
    await ui.page.getByRole("heading", { level: 1, name: "Your instance is set up" }).waitFor();
  }

  const posts = (ui: PageUnderTest) => ui.requests.filter((request) => request.startsWith("POST ")).length;

  for (const viewport of ["desktop", "phone"] as ViewportName[]) {
    it(`shows the keys once, within the window, with copy buttons; a reload does not post again (${viewport})`, async () => {
      const { svc, ui } = await freshInstance(viewport);
      const { page } = ui;
      try {
        await ui.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: svc.url });
        await page.goto(`${svc.url}/`);
        await ui.expectAccessible("the setup form");
        await ui.expectFitsWidth("the setup form");

        await submitSetup(ui, svc);
        expect(page.url()).toBe(`${svc.url}/setup/result`);
        await ui.expectAccessible("the result page");
        await ui.expectFitsWidth("the result page");
        const [, tenantKey, adminKey] = await page.locator("dd code").allInnerTexts();
        expect(tenantKey).toMatch(/^svc_sk_/);
        expect(adminKey).toMatch(/^svc_ak_/);

        // Each key has a copy button; what it copies is the key.
        await page.getByRole("button", { name: "Copy tenant api key" }).click();
        await page.getByRole("status").getByText("Tenant API key copied.").waitFor();
        expect(await page.evaluate("navigator.clipboard.readText()")).toBe(tenantKey);
        await page.getByRole("button", { name: "Copy instance admin key" }).click();
        await page.getByRole("status").getByText("Instance admin key copied.").waitFor();
        expect(await page.evaluate("navigator.clipboard.readText()")).toBe(adminKey);
        await saveScreenshot(page, `first-run-${viewport}-keys`);

        // A reload: no second post, and the keys are not shown again.
        expect(posts(ui)).toBe(1);
        await page.reload();
        await page.getByRole("heading", { level: 1, name: "The keys were shown once" }).waitFor();
        expect(posts(ui)).toBe(1);
        const content = await page.content();
        expect(content).not.toContain(tenantKey);
        expect(content).not.toContain(adminKey);
        await ui.expectAccessible("the result page after a reload");
        await ui.expectFitsWidth("the result page after a reload");
        await saveScreenshot(page, `first-run-${viewport}-reloaded`);
        expect(ui.problems).toEqual([]);
      } finally {
        await ui.close();
        await svc.stop();
      }
    });
  }

  it("works without script: the keys show, no copy button is offered", async () => {
    const { svc, ui } = await freshInstance("phone", { javaScriptEnabled: false });
    try {
      await submitSetup(ui, svc);
      expect(await ui.page.locator("dd code").count()).toBe(3);
      expect(await ui.page.getByRole("button", { name: /^Copy/ }).count()).toBe(0);
      await ui.expectFitsWidth("the result page without script");
      expect(ui.problems).toEqual([]);
    } finally {
      await ui.close();
      await svc.stop();
    }
  });
});
