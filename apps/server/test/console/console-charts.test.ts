// The user page's charts in a real browser at desktop and phone sizes: every toggle (type,
// view, short and long window) keeps the console alive; a window with more samples than are
// drawn one by one shows its statistics instead of its first hours; "which source won"
// counts what the chart shows; a source keeps its colour on every chart and table; body
// measurements get a fitted value axis; and a broken widget stays inside its section.
import { createAdminKey, type CreatedTenant, type QuantitySampleRecord } from "@svc/core";
import { browserAvailable, saveScreenshot } from "@svc/testing";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, writeSamples } from "../helpers/records.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { openConsoleBrowser, VIEWPORTS, type ConsoleBrowser } from "./console-browser.ts";

const MINUTE = 60_000;
const DAY = 86_400_000;
const t0 = Date.parse("2026-03-01T08:00:00Z");
const MATCHED = 36;
/** respiratory_rate from oura every minute for 7 days: more than the 5,000 samples drawn one by one. */
const DENSE = 7 * 24 * 60;
/** respiratory_rate from withings every 2 hours over the same days, each on an oura minute. */
const SPARSE = 7 * 12;

/** heart_rate every 10 min from garmin, and from Apple 2 min later: every Apple sample matches a garmin one, which ranks first. */
function heartRate(source: "garmin" | "apple", i: number, offsetMs = 0): QuantitySampleRecord {
  return { type: "heart_rate", value: 60 + (i % 20), start_date: new Date(t0 + i * 10 * MINUTE + offsetMs), source };
}

const readings = (type: string, source: string, count: number, stepMs: number, value: (i: number) => number): QuantitySampleRecord[] =>
  Array.from({ length: count }, (_, i) => ({ type, value: value(i), start_date: new Date(t0 + i * stepMs), source }));

/** The computed colour of each swatch of a legend (by label) or table (by row). */
async function swatchColors(container: Locator): Promise<Record<string, string>> {
  return container.evaluate((root) => {
    const colors: Record<string, string> = {};
    const win = globalThis as unknown as { getComputedStyle(el: unknown): { backgroundColor: string } };
    for (const item of (root as unknown as { querySelectorAll(s: string): Iterable<{ textContent: string | null; querySelector(s: string): unknown }> }).querySelectorAll("li, tr")) {
      const swatch = item.querySelector(".mantine-ColorSwatch-colorOverlay");
      if (swatch) colors[(item.textContent ?? "").trim().split(/\d/)[0]!.trim()] = win.getComputedStyle(swatch).backgroundColor;
    }
    return colors;
  });
}

/** The distinct computed fills of a scatter chart's points. */
async function pointColors(figure: Locator): Promise<string[]> {
  return figure.evaluate((root) => {
    const win = globalThis as unknown as { getComputedStyle(el: unknown): { fill: string } };
    const paths = (root as unknown as { querySelectorAll(s: string): Iterable<unknown> }).querySelectorAll(".recharts-scatter-symbol path, .recharts-scatter .recharts-symbols");
    return [...new Set([...paths].map((path) => win.getComputedStyle(path).fill))].sort();
  });
}

/** The y axis tick values of the first chart in `figure`. */
async function yTicks(figure: Locator): Promise<number[]> {
  const texts = await figure.locator(".recharts-yAxis-tick-labels").first().locator("text").allTextContents();
  return texts.map((text) => Number(text.replace(/[^\d.-]/g, ""))).filter((n) => Number.isFinite(n));
}

/** The datetime-local value `days` before another one (both in the machine's zone, as the browser's). */
function daysBefore(value: string, days: number): string {
  const date = new Date(new Date(value).getTime() - days * DAY);
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A row of the "which source won" table, as its cells' texts. */
async function outcome(page: Page, stream: string): Promise<string[]> {
  const table = page.getByRole("region", { name: "Merged view: which source won" }).getByRole("table");
  const row = table.getByRole("row").filter({ has: page.getByRole("rowheader", { name: stream, exact: true }) });
  await row.waitFor();
  return row.getByRole("cell").allTextContents();
}

describe.runIf(browserAvailable())("console: the user page's charts", () => {
  let service: TestService;
  let adminKey: string;
  let tenant: CreatedTenant;
  let userId: string;

  beforeAll(async () => {
    service = await startTestService();
    adminKey = (await createAdminKey(service.db, "console charts test")).admin_key;
    tenant = await service.createTenant("acme");
    userId = await createUser(service, tenant.api_key);
    await writeSamples(service, userId, "garmin", Array.from({ length: MATCHED }, (_, i) => heartRate("garmin", i)));
    await writeSamples(service, userId, "apple_health", Array.from({ length: MATCHED }, (_, i) => heartRate("apple", i, 2 * MINUTE)));
    await writeSamples(service, userId, "oura", readings("respiratory_rate", "oura", DENSE, MINUTE, (i) => 14 + (i % 5)));
    await writeSamples(service, userId, "withings", readings("respiratory_rate", "withings", SPARSE, 2 * 60 * MINUTE, (i) => 15 + (i % 3)));
    await writeSamples(service, userId, "withings", readings("body_mass", "withings", 30, DAY, (i) => 80.2 + (i % 8) / 10));
  }, 120_000);

  afterAll(async () => {
    await service?.stop();
  });

  /** Samples per provider/source of respiratory_rate the merged view keeps in a window, from the admin stats route. */
  async function keptByStream(start: string, end: string): Promise<Record<string, number>> {
    const query = new URLSearchParams({ type: "respiratory_rate", start, end, interval: "day", view: "merged" });
    const answer = await service.call(`/v1/admin/tenants/${tenant.tenant_id}/users/${userId}/samples/stats?${query}`, { key: adminKey });
    expect(answer.status, answer.text).toBe(200);
    const kept: Record<string, number> = {};
    for (const bucket of answer.body.buckets as Array<{ provider: string; source: string; count: number }>) {
      kept[`${bucket.provider}/${bucket.source}`] = (kept[`${bucket.provider}/${bucket.source}`] ?? 0) + bucket.count;
    }
    return kept;
  }

  describe.each(Object.entries(VIEWPORTS))("at %s size", (size, viewport) => {
    let console_: ConsoleBrowser;

    beforeAll(async () => {
      console_ = await openConsoleBrowser(service.url, { viewport });
      console_.page.setDefaultTimeout(15_000);
      await console_.signIn(adminKey);
    }, 60_000);

    afterAll(async () => {
      await console_?.close();
    });

    const openUser = async () => {
      await console_.navigate(`/console/tenants/${tenant.tenant_id}/users/${userId}`);
      await console_.page.getByRole("heading", { name: `User ${userId}` }).waitFor();
    };

    it("survives switching two sources of heart_rate to Merged (one series) and back, each source in one colour", { timeout: 60_000 }, async () => {
      const { page } = console_;
      await openUser();
      await page.getByLabel("Quantity type").selectOption("heart_rate");
      const all = page.getByRole("figure", { name: "Samples over time, every source" });
      await all.getByText(`${MATCHED * 2} samples in 2 series.`).waitFor();
      const allColors = await swatchColors(all.getByRole("list", { name: "Sources" }));
      expect(Object.keys(allColors).sort()).toEqual(["apple_health/apple", "garmin/garmin"]);
      expect(allColors["apple_health/apple"]).not.toBe(allColors["garmin/garmin"]);
      // The chart draws exactly the legend's colours.
      expect(await pointColors(all)).toEqual(Object.values(allColors).sort());
      // The table and the statistics chart use the same colour for each source.
      const table = page.getByRole("region", { name: "Merged view: which source won" });
      await table.getByRole("table").waitFor();
      expect(await swatchColors(table)).toEqual(allColors);
      const stats = page.getByRole("figure", { name: /^Statistics per hour \(every source\)/ });
      await stats.getByRole("list", { name: "Series" }).waitFor();
      const statsColors = await swatchColors(stats.getByRole("list", { name: "Series" }));
      expect(statsColors).toEqual({ "apple_health/apple / count/min": allColors["apple_health/apple"], "garmin/garmin / count/min": allColors["garmin/garmin"] });

      await page.getByText("Merged", { exact: true }).click();
      const merged = page.getByRole("figure", { name: "Samples over time, merged (the winning source of each)" });
      await merged.getByText(`${MATCHED} samples in 1 series.`).waitFor();
      // Garmin keeps its colour though it is now the only series.
      expect(await swatchColors(merged.getByRole("list", { name: "Sources" }))).toEqual({ "garmin/garmin": allColors["garmin/garmin"] });
      expect(await pointColors(merged)).toEqual([allColors["garmin/garmin"]]);
      expect(await outcome(page, "garmin/garmin")).toEqual([String(MATCHED), String(MATCHED), String(MATCHED), "0"]);
      expect(await outcome(page, "apple_health/apple")).toEqual([String(MATCHED), "0", "0", String(MATCHED)]);
      await page.getByText("Every source", { exact: true }).click();
      await all.getByText(`${MATCHED * 2} samples in 2 series.`).waitFor();
      expect(console_.errors).toEqual([]);
      await saveScreenshot(page, `console-charts-heart-rate-${size}`);
    });

    it("draws a long window's statistics over the whole window (not its first hours) and counts them in the table; a short one sample by sample", { timeout: 90_000 }, async () => {
      const { page } = console_;
      await openUser();
      await page.getByLabel("Quantity type").selectOption("respiratory_rate");
      // The default window: the 7 days before the last sample, more than 5,000 samples.
      const averages = page.getByRole("figure", { name: "Hourly averages over time, every source" });
      await averages.getByText(`${(DENSE + SPARSE).toLocaleString("en-US")} samples from`, { exact: false }).waitFor();
      await averages.getByText("(7 days) (every source), more than the 5,000 drawn one by one", { exact: false }).waitFor();
      await averages.locator(".recharts-line-curve").first().waitFor({ state: "attached" });
      expect(await page.getByRole("figure", { name: /^Samples over time/ }).count()).toBe(0);
      // Which source won counts the whole window, as the chart does (won and outranked need the samples).
      const oura = await outcome(page, "oura/oura");
      const withings = await outcome(page, "withings/withings");
      expect(Number(oura[0]!.replace(/\D/g, "")) + Number(withings[0]!.replace(/\D/g, ""))).toBe(DENSE + SPARSE);
      expect(oura[0]!.replace(/\D/g, "")).toBe(String(DENSE));
      expect(withings[0]!.replace(/\D/g, "")).toBe(String(SPARSE));
      // Kept: what the merged view's statistics count for the window (the chart's merged view).
      const kept = await keptByStream(new Date(t0).toISOString(), new Date(t0 + 7 * DAY).toISOString());
      expect([oura[1]!.replace(/\D/g, ""), withings[1]!.replace(/\D/g, "")]).toEqual([String(kept["oura/oura"] ?? 0), String(kept["withings/withings"] ?? 0)]);
      expect((kept["oura/oura"] ?? 0) + (kept["withings/withings"] ?? 0)).toBeLessThan(DENSE + SPARSE);
      expect([oura[2], oura[3], withings[2], withings[3]]).toEqual(["—", "—", "—", "—"]);
      await page.getByText("Won and outranked need the samples one by one", { exact: false }).waitFor();

      await page.getByText("Merged", { exact: true }).click();
      await page.getByRole("figure", { name: "Hourly averages over time, merged (the winning source of each)" }).locator(".recharts-line-curve").first().waitFor({ state: "attached" });
      await page.getByText("Every source", { exact: true }).click();
      await averages.locator(".recharts-line-curve").first().waitFor({ state: "attached" });
      await saveScreenshot(page, `console-charts-long-window-${size}`);

      // One day: 1,440 + 12 samples, drawn one by one over exactly that day.
      const to = await page.getByLabel("To (exclusive)").inputValue();
      await page.getByLabel("From").fill(daysBefore(to, 1));
      const oneByOne = page.getByRole("figure", { name: "Samples over time, every source" });
      await oneByOne.getByText("samples in 2 series.", { exact: false }).waitFor();
      const note = (await oneByOne.locator("figcaption").textContent()) ?? "";
      const count = Number(note.replace(/ samples.*/, "").replace(/\D/g, ""));
      expect(count).toBeGreaterThan(1_400);
      expect(count).toBeLessThanOrEqual(1_440 + 12);
      const counted = await outcome(page, "oura/oura");
      expect(Number(counted[0]!.replace(/\D/g, "")) + Number((await outcome(page, "withings/withings"))[0]!.replace(/\D/g, ""))).toBe(count);
      expect(counted[2]).not.toBe("—");
      await page.getByText("Merged", { exact: true }).click();
      await page.getByRole("figure", { name: "Samples over time, merged (the winning source of each)" }).getByText("samples in", { exact: false }).waitFor();
      await page.getByText("Every source", { exact: true }).click();
      await oneByOne.getByText("samples in 2 series.", { exact: false }).waitFor();
      // The statistics chart's own toggles.
      const stats = page.getByRole("figure", { name: /^Statistics per/ });
      for (const interval of ["Per day", "Per hour"]) {
        await stats.getByText(interval, { exact: true }).click();
        for (const metric of ["Min", "Max", "Sum", "Count", "Average"]) await stats.getByText(metric, { exact: true }).click();
      }
      await stats.locator(".recharts-line-curve").first().waitFor({ state: "attached" });
      expect(console_.errors).toEqual([]);
      await console_.expectAccessible(`the user page with a long window at ${size} size`);
    });

    it("fits the value axis of a body measurement to its values instead of starting at 0", { timeout: 60_000 }, async () => {
      const { page } = console_;
      await openUser();
      await page.getByLabel("Quantity type").selectOption("body_mass");
      const chart = page.getByRole("figure", { name: "Samples over time, every source" });
      await chart.locator(".recharts-yAxis-tick-labels text").first().waitFor();
      const ticks = await yTicks(chart);
      expect(ticks.length).toBeGreaterThan(1);
      expect(Math.min(...ticks)).toBeGreaterThanOrEqual(75);
      expect(Math.max(...ticks)).toBeLessThanOrEqual(85);
      const stats = page.getByRole("figure", { name: /^Statistics per/ });
      await stats.locator(".recharts-yAxis-tick-labels text").first().waitFor();
      expect(Math.min(...(await yTicks(stats)))).toBeGreaterThanOrEqual(75);
      await saveScreenshot(page, `console-charts-body-mass-${size}`);
    });

    it("keeps the console alive through every type, view and window", { timeout: 120_000 }, async () => {
      const { page } = console_;
      await openUser();
      for (const type of ["heart_rate", "respiratory_rate", "body_mass", "heart_rate", "body_mass", "respiratory_rate"]) {
        await page.getByLabel("Quantity type").selectOption(type);
        for (const view of ["Merged", "Every source", "Merged"]) {
          await page.getByText(view, { exact: true }).click();
          await page.getByRole("figure", { name: / over time, / }).locator("svg").first().waitFor();
        }
        const to = await page.getByLabel("To (exclusive)").inputValue();
        for (const days of [1, 30, 7]) {
          await page.getByLabel("From").fill(daysBefore(to, days));
          await page.getByRole("figure", { name: / over time, / }).locator("svg").first().waitFor();
        }
        await page.getByLabel("From").fill(to); // an empty window: said, not drawn
        await page.getByText("The window's start must be before its end.").waitFor();
        await page.getByText("Every source", { exact: true }).click();
      }
      expect(await page.getByRole("alert").filter({ hasText: "could not be shown" }).count()).toBe(0);
      await page.getByRole("heading", { name: "Connections" }).waitFor();
      expect(console_.errors).toEqual([]);
    });

    it("contains a widget that breaks on an answer it did not expect to its section, with a retry", { timeout: 60_000 }, async () => {
      const { page } = console_;
      // Statistics answers without their buckets: the charts reading them throw while drawing.
      await page.route("**/trpc/**", async (route) => {
        const procedures = new URL(route.request().url()).pathname.replace("/trpc/", "").split(",");
        const response = await route.fetch();
        const batch = (await response.json()) as Array<{ result?: { data?: { json?: Record<string, unknown> } } }>;
        procedures.forEach((procedure, index) => {
          const json = batch[index]?.result?.data?.json;
          if (procedure === "adminMirrors.getTenantSampleStats" && json) json.buckets = null;
        });
        await route.fulfill({ response, json: batch });
      });
      await openUser();
      await page.getByLabel("Quantity type").selectOption("heart_rate");
      const failed = page.getByRole("alert").filter({ hasText: "could not be shown" });
      await failed.first().waitFor();
      // The rest of the page still works: the header, the type picker, the other sections.
      await page.getByRole("heading", { name: "Connections" }).waitFor();
      await page.getByRole("heading", { name: "Sync runs" }).waitFor();
      await page.getByRole("button", { name: "Sign out" }).waitFor();
      expect(console_.errors).toEqual([]);
      await console_.expectAccessible(`a failed section at ${size} size`);
      await saveScreenshot(page, `console-charts-failed-section-${size}`);

      await page.unroute("**/trpc/**");
      await failed.first().getByRole("button", { name: "Try again" }).click();
      await page.getByRole("figure", { name: "Samples over time, every source" }).getByText(`${MATCHED * 2} samples in 2 series.`).waitFor();
      await expect.poll(() => failed.count()).toBe(0);
    });
  });
});
