import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { launchBrowser } from "@svc/testing";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** The two screens the share viewer is tested on: a desktop and a mid-range phone. */
export const SCREENS = [
  { name: "desktop", width: 1440, height: 900, phone: false },
  { name: "phone", width: 390, height: 844, phone: true },
] as const;
export type Screen = (typeof SCREENS)[number];

export interface ViewerBrowser {
  browser: Browser;
  /** A fresh page on the screen, its clock in `timezoneId` (a doctor west of UTC by default). */
  newPage(screen: Screen, timezoneId?: string): Promise<Page>;
  close(): Promise<void>;
}

export async function openViewerBrowser(): Promise<ViewerBrowser> {
  const browser = await launchBrowser();
  const contexts: BrowserContext[] = [];
  return {
    browser,
    async newPage(screen, timezoneId = "America/Los_Angeles") {
      const context = await browser.newContext({
        viewport: { width: screen.width, height: screen.height },
        isMobile: screen.phone,
        hasTouch: screen.phone,
        reducedMotion: "reduce",
        timezoneId,
        locale: "en-US",
        acceptDownloads: true,
      });
      contexts.push(context);
      return context.newPage();
    },
    close: () => browser.close(),
  };
}

/** Runs axe on the page; fails on serious or critical violations. */
export async function expectAccessible(page: Page, context: string): Promise<void> {
  // Evaluated through the DevTools protocol, so the page's CSP (script-src 'self') allows it.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> } }).axe;
    const result = await axe.run();
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => (n as { target: unknown }).target))} ${(v.nodes[0] as { failureSummary?: string }).failureSummary ?? ""}`);
  });
  expect(violations, `accessibility of ${context}`).toEqual([]);
}

/** Nothing on the page is wider than the screen (no sideways scrolling). */
export async function expectNoSidewaysScroll(page: Page, screen: Screen): Promise<void> {
  const width = (await page.evaluate("document.documentElement.scrollWidth")) as number;
  expect(width, `page width on the ${screen.name}`).toBeLessThanOrEqual(screen.width);
}
