import { readFile } from "node:fs/promises";
import { decryptJwe, encryptJwe, parseShlink, type QuantitySampleRecord } from "@svc/core";
import { browserAvailable, saveScreenshot } from "@svc/testing";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { shareViewerDistDir } from "../../src/share-viewer/share-viewer-router.ts";
import { at, createUser, startWithTwoTenants, writeDaily, writeSamples } from "../helpers/records.ts";
import type { TestService } from "../helpers/test-service.ts";
import { expectAccessible, expectNoSidewaysScroll, openViewerBrowser, SCREENS, type Screen, type ViewerBrowser } from "./share-viewer-browser.ts";

const PASSCODE = "blue-harbor-17";
const LA = "America/Los_Angeles";
// Nov 23 to Nov 26, 2025, midnight to midnight in Los Angeles (UTC-8).
const WINDOW = { start: "2025-11-23T08:00:00Z", end: "2025-11-26T08:00:00Z" };
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();
const HOUR = 3_600_000;
const laSample = (type: string, value: number, ms: number, durationMs = 0): QuantitySampleRecord => ({
  type,
  value,
  start_date: new Date(ms),
  end_date: new Date(ms + durationMs),
  source: "withings",
  timezone: LA,
});

/**
 * A watch wearer in Los Angeles, Nov 23-25, 2025: heart rate every 30 minutes, 500 steps every
 * hour from 08:00 to 20:00 local (6,500 a day), a weight, and the provider's daily summary of
 * Nov 25 (6,406 steps): a date, which must read Nov 25 anywhere.
 */
async function writeWatchWearer(svc: TestService, user: string) {
  const samples: QuantitySampleRecord[] = [];
  const start = Date.parse(WINDOW.start);
  for (let day = 0; day < 3; day++) {
    const midnight = start + day * 24 * HOUR;
    for (let half = 0; half < 48; half++) samples.push(laSample("heart_rate", 55 + ((half * 7 + day) % 40), midnight + half * HOUR / 2));
    for (let hour = 8; hour <= 20; hour++) samples.push(laSample("step_count", 500, midnight + hour * HOUR, 10 * 60_000));
  }
  samples.push(laSample("body_mass", 72.4, start + 7 * HOUR));
  await writeSamples(svc, user, "withings", samples);
  await writeDaily(svc, user, "garmin", [{ date: "2025-11-25", steps: 6_406, timezone: LA, source: "garmin" }]);
}

describe.runIf(browserAvailable())("share viewer page (/share)", () => {
  let svc: TestService;
  let key: string;
  let user: string;
  let viewer: ViewerBrowser;

  beforeAll(async () => {
    if (!shareViewerDistDir()) throw new Error("apps/share-viewer/dist is missing: run `npm test` (it builds the viewer) or `pnpm turbo run build --filter=@svc/share-viewer`.");
    ({ svc, key } = await startWithTwoTenants());
    user = await createUser(svc, key);
    await writeWatchWearer(svc, user);
    viewer = await openViewerBrowser();
  });
  afterAll(async () => {
    await viewer?.close();
    await svc?.stop();
  });

  async function createShare(extra: Record<string, unknown> = {}) {
    const answer = await svc.call(`/v1/users/${user}/shares`, {
      key,
      body: { label: "For Dr. Lee", categories: ["heart", "activity", "body"], ...WINDOW, expires_at: inDays(7), passcode: PASSCODE, ...extra },
    });
    expect(answer.status, answer.text).toBe(201);
    return answer.body as { id: string; link: string; shlink: string };
  }
  const keyOf = (shlink: string) => parseShlink(shlink)!.key;

  /** A table on the desktop, its stacked list on a phone; named by the caption. */
  const tableOrList = (page: Page, screen: Screen, name: string | RegExp) => page.getByRole(screen.phone ? "list" : "table", { name });

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

  describe.each(SCREENS)("on a $name ($width x $height)", (screen) => {
    it("asks for the passcode, shows the download, then days of the records' zone: totals for counts, ranges for readings, dates as dates", async () => {
      const share = await createShare();
      const page = await viewer.newPage(screen);
      const sent: string[] = [];
      page.on("request", (request) => sent.push(`${request.url()} ${request.postData() ?? ""}`));
      await page.goto(share.link);
      await page.getByRole("heading", { name: "Shared health data", level: 1 }).waitFor();
      await page.getByText("For Dr. Lee").waitFor();
      await page.getByText(/Link valid until/).waitFor();
      await expectAccessible(page, "the passcode form");
      await saveScreenshot(page, `share-viewer-passcode-${screen.name}`);

      await page.getByRole("textbox", { name: "Passcode" }).fill("wrong-guess");
      await page.getByRole("button", { name: "Open share" }).click();
      await page.getByRole("alert").getByText("9 attempts left").waitFor();
      await expectAccessible(page, "the wrong passcode message");

      // Every status line the page shows while opening, in order (a slow network: the download shows).
      await page.evaluate(`(() => {
        const seen = [];
        window.statusLines = seen;
        new MutationObserver(() => {
          for (const node of document.querySelectorAll('[role="status"], [role="progressbar"]')) {
            const text = node.getAttribute("role") === "progressbar" ? "progress " + node.getAttribute("aria-valuenow") : node.textContent;
            if (seen.at(-1) !== text) seen.push(text);
          }
        }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true });
      })()`);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 100, downloadThroughput: 4_000, uploadThroughput: 100_000 });
      await page.getByRole("textbox", { name: "Passcode" }).fill(PASSCODE);
      await page.getByRole("button", { name: "Open share" }).click();
      await page.getByRole("heading", { name: "Overview", level: 2 }).waitFor();
      await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
      const lines = (await page.evaluate("window.statusLines")) as string[];
      expect(lines.some((line) => /^Downloading the shared file… .+ of .+$/.test(line)), lines.join(" | ")).toBe(true);
      expect(lines.some((line) => /^progress \d+$/.test(line)), lines.join(" | ")).toBe(true);

      // The zone is named, once for the page and on every chart and table.
      await page.getByText(`Days and times are in ${LA}, the time zone of the records.`).waitFor();
      await page.getByRole("heading", { name: "Heart", level: 2 }).waitFor();
      await page.getByRole("heading", { name: "Activity", level: 2 }).waitFor();
      const figures = page.getByRole("figure");
      expect(await figures.count()).toBeGreaterThanOrEqual(2);
      for (const caption of await page.locator("figcaption").allTextContents()) expect(caption).toContain(`days and times in ${LA}`);
      const tables = page.getByRole(screen.phone ? "list" : "table");
      expect(await tables.count()).toBe(5);
      expect(await page.getByRole(screen.phone ? "list" : "table", { name: `days and times in ${LA}` }).count()).toBe(5);

      // Steps: the day's total (6,500), not one sample's 500; charted per day.
      const steps = page.getByRole("figure", { name: "Step count (steps)" });
      // Charts are drawn once they near the screen.
      await steps.scrollIntoViewIfNeeded();
      await steps.locator("svg").first().waitFor();
      await steps.getByText(`3 daily totals from Nov 23, 2025 to Nov 25, 2025, days and times in ${LA}.`).waitFor();
      const activity = tableOrList(page, screen, /^Activity: latest values/);
      await activity.getByText("6,500 steps (day total)").waitFor();
      // Heart rate: the day's minimum, average and maximum.
      await page.getByRole("figure", { name: "Heart rate (per min)" }).getByText(/3 daily minimum, average and maximum from Nov 23, 2025/).waitFor();
      await tableOrList(page, screen, /^Heart: latest values/).getByText(/^average \d+(\.\d+)? per min \(\d+–\d+\)$/).waitFor();
      // The daily summary of Nov 25 reads Nov 25, west of UTC too.
      const summaries = tableOrList(page, screen, /^Daily summaries: all records/);
      await summaries.getByText("Nov 25, 2025", { exact: true }).waitFor();
      expect(await summaries.getByText(/Nov 24/).count()).toBe(0);
      // 3 days of heart rate and of steps, the weight, the daily summary.
      await page.getByText("8 observations, Nov 23, 2025 – Nov 25, 2025.").waitFor();

      // Tables fit the screen: stacked on a phone, nothing scrolls sideways.
      if (screen.phone) expect(await page.locator("table").count()).toBe(0);
      await expectNoSidewaysScroll(page, screen);
      await expectAccessible(page, "the opened share");
      await saveScreenshot(page, `share-viewer-summary-${screen.name}`);

      const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Download FHIR Bundle" }).click()]);
      expect(download.suggestedFilename()).toMatch(/^share-\d{4}-\d{2}-\d{2}\.json$/);
      const bundle = JSON.parse(await readFile(await download.path(), "utf8")) as { resourceType: string; entry: Array<{ resource: { id: string } }> };
      expect(bundle.resourceType).toBe("Bundle");
      expect(bundle.entry.map((e) => e.resource.id).filter((id) => id.startsWith("day-step-count-"))).toHaveLength(3);

      // The key stayed in the fragment: no request carried it.
      expect(sent.some((line) => line.includes(keyOf(share.shlink)))).toBe(false);
      const row = await svc.db.share.findFirstOrThrow({ where: { id: share.id } });
      expect(row).toMatchObject({ accesses: 1, passcodeFailures: 1 });
      await page.context().close();
    });

    it("says a revoked share was revoked, and why, never until when it is valid", async () => {
      const share = await createShare({ passcode: undefined });
      const revoked = await svc.call(`/v1/users/${user}/shares/${share.id}/revoke`, { key, method: "POST" });
      expect(revoked.status, revoked.text).toBe(200);
      const page = await viewer.newPage(screen);
      await page.goto(share.link);
      const alert = page.getByRole("alert");
      await alert.getByText("This share was revoked").waitFor();
      await alert.getByText(/The person who shared it revoked the link\./).waitFor();
      expect(await page.getByText(/valid until/i).count()).toBe(0);
      await expectNoSidewaysScroll(page, screen);
      await expectAccessible(page, "a revoked share");
      await saveScreenshot(page, `share-viewer-revoked-${screen.name}`);
      await page.context().close();
    });

    it("still opens a share made before compression, zones and daily detail, in the browser's zone", async () => {
      const share = await createShare({ passcode: undefined, detail: "full" });
      // Rewrite its file as shares were written before: every sample, no zone, no detail tag, no zip.
      const linkKey = Buffer.from(keyOf(share.shlink), "base64url");
      const row = await svc.db.share.findFirstOrThrow({ where: { id: share.id } });
      const { plaintext } = decryptJwe(Buffer.from(row.file!).toString("ascii"), linkKey);
      const { _timestamp: _zone, meta: _detail, ...old } = JSON.parse(plaintext.toString("utf8")) as Record<string, unknown>;
      const file = Buffer.from(encryptJwe(JSON.stringify({ ...old, timestamp: new Date().toISOString() }), linkKey, { contentType: "application/fhir+json" }), "ascii");
      await svc.db.share.updateMany({ where: { id: share.id }, data: { file, fileBytes: file.length } });

      const page = await viewer.newPage(screen);
      await page.goto(share.link);
      await page.getByRole("heading", { name: "Overview", level: 2 }).waitFor();
      await page.getByText(`Days and times are in ${LA}, this browser's time zone (the share does not name one).`).waitFor();
      // Samples summed per day of the browser's zone all the same.
      await tableOrList(page, screen, /^Activity: latest values/).getByText("6,500 steps (day total)").waitFor();
      await tableOrList(page, screen, /^Daily summaries: all records/).getByText("Nov 25, 2025", { exact: true }).waitFor();
      await expectNoSidewaysScroll(page, screen);
      await expectAccessible(page, "an old share");
      await page.context().close();
    });
  });

  it("opens a share without a passcode directly, and explains a damaged link", async () => {
    const share = await createShare({ passcode: undefined, label: "Coach" });
    const page = await viewer.newPage(SCREENS[0]);
    await page.goto(share.link);
    await page.getByRole("heading", { name: "Heart", level: 2 }).waitFor();

    // Only the fragment changes: the page starts over with the new link.
    await page.goto(`${svc.url}/share#shlink:/not-a-link`);
    await page.getByRole("alert").getByText("This share link cannot be opened").waitFor();
    await expectAccessible(page, "a damaged link");
    await saveScreenshot(page, "share-viewer-bad-link");
    await page.context().close();
  });
});
