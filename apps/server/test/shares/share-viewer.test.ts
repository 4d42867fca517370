import { readFile } from "node:fs/promises";
import type { QuantitySampleRecord } from "@svc/core";
import { browserAvailable, saveScreenshot } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shareViewerDistDir } from "../../src/share-viewer/share-viewer-router.ts";
import { openConsoleBrowser, type ConsoleBrowser } from "../console/console-browser.ts";
import { at, createUser, startWithTwoTenants, writeSamples } from "../helpers/records.ts";
import type { TestService } from "../helpers/test-service.ts";

const PASSCODE = "blue-harbor-17";
const WINDOW = { start: "2026-02-25T00:00:00Z", end: "2026-03-05T00:00:00Z" };
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const sample = (type: string, value: number, time: string): QuantitySampleRecord => ({ type, value, start_date: at(time), source: "withings" });

describe.runIf(browserAvailable())("share viewer page (/share)", () => {
  let svc: TestService;
  let key: string;
  let user: string;
  let browser: ConsoleBrowser;
  /** Every URL and body the page sent: the link's key must be in none. */
  const sent: string[] = [];

  beforeAll(async () => {
    if (!shareViewerDistDir()) throw new Error("apps/share-viewer/dist is missing: run `npm test` (it builds the viewer) or `pnpm turbo run build --filter=@svc/share-viewer`.");
    ({ svc, key } = await startWithTwoTenants());
    user = await createUser(svc, key);
    // Two categories: heart (shared) and body (not shared).
    await writeSamples(svc, user, "withings", [
      sample("heart_rate", 61, "2026-03-01T07:00:00Z"),
      sample("heart_rate", 72, "2026-03-02T07:00:00Z"),
      sample("heart_rate", 66, "2026-03-03T07:00:00Z"),
      sample("heart_rate", 58, "2026-03-04T07:00:00Z"),
      sample("body_mass", 72.4, "2026-03-01T07:10:00Z"),
      sample("body_mass", 72.1, "2026-03-03T07:10:00Z"),
    ]);
    browser = await openConsoleBrowser(svc.url);
    browser.page.on("request", (request) => sent.push(`${request.url()} ${request.postData() ?? ""}`));
  });
  afterAll(async () => {
    await browser?.close();
    await svc?.stop();
  });

  async function createShare(extra: Record<string, unknown> = {}) {
    const answer = await svc.call(`/v1/users/${user}/shares`, {
      key,
      body: { label: "For Dr. Lee", categories: ["heart"], ...WINDOW, expires_at: inDays(7), passcode: PASSCODE, ...extra },
    });
    expect(answer.status, answer.text).toBe(201);
    return answer.body as { id: string; link: string; shlink: string };
  }
  const keyOf = (shlink: string) => (JSON.parse(Buffer.from(shlink.slice("shlink:/".length), "base64url").toString("utf8")) as { key: string }).key;

  it("serves the page with its own CSP, no caching and no referrer, and nothing else under /share", async () => {
    for (const path of ["/share", "/share/"]) {
      const response = await fetch(`${svc.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-security-policy")).toContain("connect-src 'self'");
      expect(response.headers.get("content-security-policy")).toContain("script-src 'self'");
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(response.headers.get("referrer-policy")).toBe("no-referrer");
      const html = await response.text();
      const scripts = [...html.matchAll(/<script[^>]*src="([^"]+)"/g)].map((m) => m[1]);
      expect(scripts.length).toBeGreaterThan(0);
      for (const src of scripts) expect(src).toMatch(/^\/share\/assets\//);
    }
    expect((await fetch(`${svc.url}/share/assets/missing.js`)).status).toBe(404);
    expect((await fetch(`${svc.url}/share/elsewhere`)).status).toBe(404);
    // The share router's routes are not shadowed.
    const unknown = await fetch(`${svc.url}/share/00000000-0000-4000-8000-000000000000/manifest`, { method: "POST", headers: { "content-type": "application/json" }, body: '{"recipient":"x"}' });
    expect(unknown.status).toBe(404);
  });

  it("asks for the passcode, counts a wrong one, then shows only the shared category and downloads the Bundle", async () => {
    const share = await createShare();
    const { page } = browser;
    await page.goto(share.link);
    await page.getByRole("heading", { name: "Shared health data", level: 1 }).waitFor();
    await page.getByText("For Dr. Lee").waitFor();
    await page.getByText(/Link valid until/).waitFor();
    await browser.expectAccessible("the passcode form");
    await saveScreenshot(page, "share-viewer-passcode");

    await page.getByRole("textbox", { name: "Passcode" }).fill("wrong-guess");
    await page.getByRole("button", { name: "Open share" }).click();
    await page.getByRole("alert").getByText("9 attempts left").waitFor();
    await browser.expectAccessible("the wrong passcode message");
    await saveScreenshot(page, "share-viewer-wrong-passcode");

    await page.getByRole("textbox", { name: "Passcode" }).fill(PASSCODE);
    await page.getByRole("button", { name: "Open share" }).click();
    await page.getByRole("heading", { name: "Overview", level: 2 }).waitFor();
    await page.getByRole("heading", { name: "Heart", level: 2 }).waitFor();
    expect(await page.getByRole("heading", { name: "Body" }).count()).toBe(0);
    await page.getByRole("figure", { name: "Heart rate (per min)" }).locator("svg").first().waitFor();
    expect(await page.getByRole("figure").count()).toBe(1);
    await page.getByRole("table", { name: "Heart: latest values" }).getByRole("cell", { name: "58 per min" }).waitFor();
    await page.getByText("4 observations, ").waitFor();
    await browser.expectAccessible("the opened share");
    await saveScreenshot(page, "share-viewer-summary");

    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download FHIR Bundle" }).click()]);
    expect(download.suggestedFilename()).toMatch(/^share-\d{4}-\d{2}-\d{2}\.json$/);
    const bundle = JSON.parse(await readFile(await download.path(), "utf8")) as { resourceType: string; entry: Array<{ resource: { code: { text: string } } }> };
    expect(bundle.resourceType).toBe("Bundle");
    expect(bundle.entry.map((e) => e.resource.code.text)).toEqual(["heart_rate", "heart_rate", "heart_rate", "heart_rate"]);

    // The key stayed in the fragment: no request carried it.
    expect(sent.some((line) => line.includes(keyOf(share.shlink)))).toBe(false);
    const row = await svc.db.share.findUniqueOrThrow({ where: { id: share.id } });
    expect(row).toMatchObject({ accesses: 1, passcodeFailures: 1 });
  });

  it("says a revoked share is no longer available", async () => {
    const share = await createShare({ passcode: undefined });
    const revoked = await svc.call(`/v1/users/${user}/shares/${share.id}/revoke`, { key, method: "POST" });
    expect(revoked.status, revoked.text).toBe(200);
    const { page } = browser;
    await page.goto(share.link);
    await page.getByRole("alert").getByText("This share is no longer available").waitFor();
    await browser.expectAccessible("a revoked share");
    await saveScreenshot(page, "share-viewer-revoked");
  });

  it("opens a share without a passcode directly, and explains a damaged link", async () => {
    const share = await createShare({ passcode: undefined, label: "Coach" });
    const { page } = browser;
    await page.goto(share.link);
    await page.getByRole("heading", { name: "Heart", level: 2 }).waitFor();

    // Only the fragment changes: the page starts over with the new link.
    await page.goto(`${svc.url}/share#shlink:/not-a-link`);
    await page.getByRole("alert").getByText("This share link cannot be opened").waitFor();
    await browser.expectAccessible("a damaged link");
    await saveScreenshot(page, "share-viewer-bad-link");
  });
});
