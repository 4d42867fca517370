import { existsSync, mkdirSync } from "node:fs";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";

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
