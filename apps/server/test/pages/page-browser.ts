import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { expect } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** The window sizes every page is tested at: a desktop and a phone. */
export const VIEWPORTS = {
  desktop: { width: 1440, height: 900 },
  phone: { width: 390, height: 844 },
} as const;

export type ViewportName = keyof typeof VIEWPORTS;

export interface PageUnderTest {
  context: BrowserContext;
  page: Page;
  /**
   * What went wrong while loading: console errors (a CSP refusal, a failed resource), uncaught
   * errors, failed requests and answers >= 400 to anything but the documents themselves.
   */
  problems: string[];
  /** Every request the page made (method and URL). */
  requests: string[];
  /** Runs axe on the current page; fails on serious or critical violations. */
  expectAccessible(context: string): Promise<void>;
  /** Fails when the page is wider than the window (something overflows sideways). */
  expectFitsWidth(context: string): Promise<void>;
  close(): Promise<void>;
}

/** A fresh browser context at the viewport, recording every problem of the pages it loads. */
export async function openPage(browser: Browser, viewport: ViewportName, options: { javaScriptEnabled?: boolean } = {}): Promise<PageUnderTest> {
  const context = await browser.newContext({ viewport: VIEWPORTS[viewport], reducedMotion: "reduce", javaScriptEnabled: options.javaScriptEnabled ?? true });
  const page = await context.newPage();
  const problems: string[] = [];
  const requests: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  page.on("request", (request) => requests.push(`${request.method()} ${request.url()}`));
  page.on("requestfailed", (request) => problems.push(`failed: ${request.url()} ${request.failure()?.errorText ?? ""}`));
  page.on("response", (response) => {
    if (response.status() >= 400 && response.request().resourceType() !== "document") problems.push(`${response.status()}: ${response.url()}`);
  });
  return {
    context,
    page,
    problems,
    requests,
    async expectAccessible(label) {
      // Evaluated through the DevTools protocol, so the page's CSP allows it.
      await page.evaluate(axeSource);
      const violations = await page.evaluate(async () => {
        const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> } }).axe;
        const result = await axe.run();
        return result.violations
          .filter((v) => v.impact === "serious" || v.impact === "critical")
          .map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => (n as { target: unknown }).target))}`);
      });
      expect(violations, `accessibility of ${label} (${viewport})`).toEqual([]);
    },
    async expectFitsWidth(label) {
      const width = await page.evaluate("document.documentElement.scrollWidth");
      expect(width, `width of ${label} (${viewport})`).toBeLessThanOrEqual(VIEWPORTS[viewport].width);
    },
    close: () => context.close(),
  };
}
