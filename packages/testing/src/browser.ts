import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { expect } from "vitest";

/** Debian's chromium (apt-get install chromium); SVC_CHROMIUM points elsewhere. */
export const CHROMIUM_PATH = process.env.SVC_CHROMIUM ?? "/usr/bin/chromium";

/**
 * Whether browser tests can run here. Without chromium they skip (a laptop with only Node),
 * unless SVC_REQUIRE_BROWSER is set (CI), where a missing browser fails the run.
 */
export function browserAvailable(): boolean {
  if (existsSync(CHROMIUM_PATH)) return true;
  if (process.env.SVC_REQUIRE_BROWSER === "true") throw new Error(`Browser tests need chromium at ${CHROMIUM_PATH}.`);
  console.warn(`Skipping browser tests: no chromium at ${CHROMIUM_PATH} (apt-get install chromium).`);
  return false;
}

/** Headless chromium with the flags this offline machine needs. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}

/** Saves a full-page screenshot as a test artifact: <repo>/test-artifacts/<name>.png. */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  const folder = path.resolve(import.meta.dirname, "../../../test-artifacts");
  mkdirSync(folder, { recursive: true });
  const file = path.join(folder, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** The window sizes every browser-facing page is tested at: a desktop and a phone. */
export const VIEWPORTS = {
  desktop: { width: 1440, height: 900 },
  phone: { width: 390, height: 844 },
} as const;

export type ViewportName = keyof typeof VIEWPORTS;

const axeSource = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

/** Runs axe-core on the page; fails on serious or critical violations, naming their elements. */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  // Evaluated through the DevTools protocol, so the page's CSP allows it.
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> } }).axe;
    const result = await axe.run();
    return result.violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${JSON.stringify(v.nodes.map((n) => (n as { target: unknown }).target))} ${(v.nodes[0] as { failureSummary?: string }).failureSummary ?? ""}`);
  });
  expect(violations, `accessibility of ${label}`).toEqual([]);
}

/** Fails when the page is wider than `width` (something overflows sideways). */
export async function expectFitsWidth(page: Page, width: number, label: string): Promise<void> {
  const scrollWidth = (await page.evaluate("document.documentElement.scrollWidth")) as number;
  expect(scrollWidth, `width of ${label}`).toBeLessThanOrEqual(width);
}
