// The console's data pages in a real browser: a user's samples from two overlapping sources
// (the chart and which source won the merged view), the live pipeline dashboard, and a
// webhook endpoint whose delivery parks against a failing receiver, is inspected and retried.
import { createAdminKey, type CreatedTenant, type DeliverySchedule, type QuantitySampleRecord } from "@svc/core";
import { browserAvailable, replies, saveScreenshot, startWebhookReceiver, waitUntil, type WebhookReceiver } from "@svc/testing";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, writeSamples } from "../helpers/records.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { insertEndpoint, TEST_ENCRYPTION_KEY, testSealer, type TestEndpoint } from "../helpers/webhooks.ts";
import { openConsoleBrowser, type ConsoleBrowser } from "./console-browser.ts";

const HOUR = 3_600_000;
/** Three attempts, back to back: a delivery to a failing receiver parks within a second or two. */
const schedule: DeliverySchedule = {
  retryDelaysMs: [0, 0],
  timeoutMs: 2_000,
  disableAfterMs: HOUR,
  keepFinishedMs: 24 * HOUR,
  historyKept: 20,
  waitingReplaysMax: 10,
};

const t0 = Date.parse("2026-03-01T08:00:00Z");
const MATCHED = 6;
const APPLE_ONLY = 3;

/** heart_rate from garmin every 10 min, and from Apple 2 min later (within 5 min: matching, garmin ranks first), plus Apple alone later. */
function heartRate(source: "garmin" | "apple", i: number, offsetMs = 0): QuantitySampleRecord {
  return { type: "heart_rate", value: 60 + i, start_date: new Date(t0 + i * 10 * 60_000 + offsetMs), source };
}

/**
 * Client-side navigation (a reload would drop the admin key, which lives only in memory): what
 * following a link does, for a page the test reaches without clicking through the tenant list.
 */
async function navigate(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    // The server's tsconfig has no DOM types: the page's globals, typed as far as used.
    const window_ = globalThis as unknown as {
      history: { pushState(state: unknown, title: string, url: string): void };
      dispatchEvent(event: unknown): void;
      PopStateEvent: new (type: string) => unknown;
    };
    window_.history.pushState({}, "", to);
    window_.dispatchEvent(new window_.PopStateEvent("popstate"));
  }, path);
}

/** Lets a drawer's or dialog's opening transition end, so axe sees its final colours. */
const settle = (page: Page) => page.waitForTimeout(500);

describe.runIf(browserAvailable())("console: data pages", () => {
  let service: TestService;
  let console_: ConsoleBrowser;
  let adminKey: string;
  let tenant: CreatedTenant;
  let userId: string;
  let runId: number;
  let receiver: WebhookReceiver;
  let endpoint: TestEndpoint;
  let deliveryId: number;

  beforeAll(async () => {
    service = await startTestService({ SVC_WEBHOOK_ALLOW_PRIVATE: "true", SVC_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY }, { webhookSchedule: schedule });
    adminKey = (await createAdminKey(service.db, "console data test")).admin_key;
    tenant = await service.createTenant("acme");
    userId = await createUser(service, tenant.api_key);

    await writeSamples(service, userId, "garmin", Array.from({ length: MATCHED }, (_, i) => heartRate("garmin", i)));
    await writeSamples(service, userId, "apple_health", [
      ...Array.from({ length: MATCHED }, (_, i) => heartRate("apple", i, 2 * 60_000)),
      ...Array.from({ length: APPLE_ONLY }, (_, i) => heartRate("apple", i, 3 * HOUR)),
    ]);

    // A connection with a failed run: connections and sync runs on the user page, a bar on the pipeline's chart.
    const connection = await service.db.connection.create({
      data: {
        userId,
        provider: "oura",
        keySource: "instance",
        applicationId: "instance",
        sealedTokens: testSealer().seal(JSON.stringify({ access_token: "a", refresh_token: "r", token_type: "bearer" })),
        nextPullAt: new Date(Date.now() + 86_400_000),
      },
    });
    const run = await service.db.syncRun.create({
      data: {
        connectionId: connection.id,
        userId,
        provider: "oura",
        trigger: "manual",
        status: "failed",
        error: "The provider answered 500.",
        windowStart: new Date(t0),
        windowEnd: new Date(t0 + HOUR),
        finishedAt: new Date(),
      },
    });
    runId = Number(run.id);

    // An endpoint at a receiver that always fails, and a test delivery that runs out of attempts.
    receiver = await startWebhookReceiver(replies.status(500, "receiver down"));
    endpoint = await insertEndpoint(service, tenant.tenant_id, receiver.url);
    const sent = await service.call(`/v1/webhooks/${endpoint.id}/test`, { key: tenant.api_key, method: "POST" });
    expect(sent.status, sent.text).toBe(202);
    deliveryId = sent.body.id as number;
    await waitUntil(
      async () => (await service.call(`/v1/webhooks/${endpoint.id}/deliveries/${deliveryId}`, { key: tenant.api_key })).body.status === "parked",
      20_000,
      "the delivery to park",
    );

    console_ = await openConsoleBrowser(service.url);
    console_.page.setDefaultTimeout(10_000);
    await console_.signIn(adminKey);
  }, 60_000);

  afterAll(async () => {
    await console_?.close();
    await receiver?.close();
    await service?.stop();
  });

  it("lists the tenant's users and shows a user's samples per source, the merged winner, stats, connections and runs", { timeout: 60_000 }, async () => {
    const { page } = console_;
    await navigate(page, `/console/tenants/${tenant.tenant_id}/users`);
    const userLink = page.getByRole("link", { name: userId });
    await userLink.waitFor();
    await console_.expectAccessible("the users tab");
    await saveScreenshot(page, "console-data-users");
    await userLink.click();

    await page.getByRole("heading", { name: `User ${userId}` }).waitFor();
    await page.getByLabel("Quantity type").selectOption("heart_rate");
    const chart = page.getByRole("figure", { name: "Samples over time, every source" });
    await chart.locator("svg").first().waitFor();
    await chart.getByText(`${MATCHED * 2 + APPLE_ONLY} samples in 2 series.`).waitFor();
    await chart.getByText("garmin/garmin", { exact: true }).waitFor();
    await chart.getByText("apple_health/apple", { exact: true }).waitFor();

    // Which source won: garmin kept every matched sample; Apple kept only its unmatched ones.
    const winners = page.getByRole("table").filter({ has: page.getByRole("columnheader", { name: "Outranked" }) });
    const cells = async (stream: string) => winners.getByRole("row").filter({ has: page.getByRole("rowheader", { name: stream, exact: true }) }).getByRole("cell").allTextContents();
    await winners.waitFor();
    expect(await cells("garmin/garmin")).toEqual([String(MATCHED), String(MATCHED), String(MATCHED), "0"]);
    expect(await cells("apple_health/apple")).toEqual([String(MATCHED + APPLE_ONLY), String(APPLE_ONLY), "0", String(MATCHED)]);

    await page.getByText("Merged", { exact: true }).click();
    const mergedChart = page.getByRole("figure", { name: "Samples over time, merged (the winning source of each)" });
    await mergedChart.getByText(`${MATCHED + APPLE_ONLY} samples in 2 series.`).waitFor();
    await page.getByRole("figure", { name: /^Statistics per (hour|day) \(merged\)/ }).locator("svg").first().waitFor();

    const connections = page.getByRole("region", { name: "Connections" });
    await connections.getByRole("rowheader", { name: "oura" }).waitFor();
    await page.getByRole("button", { name: `Run ${runId}` }).click();
    const runDrawer = page.getByRole("dialog", { name: `Sync run ${runId}` });
    await runDrawer.getByText("The provider answered 500.").waitFor();
    await settle(page);
    await console_.expectAccessible("a sync run's drawer");
    await page.keyboard.press("Escape");
    await runDrawer.waitFor({ state: "hidden" });
    await settle(page);

    await console_.expectAccessible("the user page");
    await saveScreenshot(page, "console-data-user");
  });

  it("shows the pipeline as a live dashboard with cards and plots", { timeout: 60_000 }, async () => {
    const { page } = console_;
    await page.getByRole("tab", { name: "Pipeline" }).click();
    const sync = page.getByRole("region", { name: "Sync" });
    await sync.waitFor();
    for (const card of ["Processing", "Storage", "Delivery", "Users"]) await page.getByRole("region", { name: card }).waitFor();
    const delivery = page.getByRole("region", { name: "Delivery" });
    expect(await delivery.getByText("Parked", { exact: true }).locator("xpath=following-sibling::dd").textContent()).toBe("1");
    await page.getByRole("figure", { name: "Queue depths" }).locator("svg").first().waitFor();
    await page.getByRole("figure", { name: "Connections by status per source" }).locator("svg").first().waitFor();
    await page.getByRole("rowheader", { name: /oura/i }).waitFor();
    // Polled every 5 s: a second reading arrives, then pausing stops the updates.
    await page.getByText("2 readings since this page opened", { exact: false }).waitFor({ timeout: 12_000 });
    await page.getByRole("button", { name: "Pause updates" }).click();
    await page.getByText(/Updated at .* \(paused\)/).waitFor();
    await console_.expectAccessible("the pipeline tab");
    await saveScreenshot(page, "console-data-pipeline");
  });

  it("shows a parked delivery's attempts, retries it, and rotates the secret showing it once", { timeout: 60_000 }, async () => {
    const { page, answers } = console_;
    await page.getByRole("tab", { name: "Webhooks" }).click();
    const link = page.getByRole("link", { name: receiver.url });
    await link.waitFor();
    await console_.expectAccessible("the webhooks tab");
    await saveScreenshot(page, "console-data-webhooks");
    await link.click();

    await page.getByRole("heading", { name: "Webhook endpoint" }).waitFor();
    await page.getByLabel("Status").selectOption("parked");
    await page.getByRole("button", { name: `Delivery ${deliveryId}` }).click();
    const drawer = page.getByRole("dialog", { name: `Delivery ${deliveryId}` });
    const attempts = drawer.getByRole("table");
    await attempts.waitFor();
    // Header and three failed attempts, each with its status code and error.
    const rows = (await attempts.getByRole("row").allTextContents()).slice(1);
    expect(rows).toHaveLength(3);
    for (const [i, row] of rows.entries()) expect(row).toMatch(new RegExp(`^${i + 1}.*500.*HTTP 500`));
    expect(await drawer.getByRole("status").textContent()).toContain("parked");
    await settle(page);
    await console_.expectAccessible("a delivery's drawer");
    await saveScreenshot(page, "console-data-delivery-parked");

    receiver.reply = replies.status(204);
    await drawer.getByRole("button", { name: "Retry" }).click();
    await drawer.getByRole("status").getByText("Delivered after the retry.").waitFor({ timeout: 15_000 });
    const after = await service.call(`/v1/webhooks/${endpoint.id}/deliveries/${deliveryId}`, { key: tenant.api_key });
    expect(after.status, after.text).toBe(200);
    expect(after.body).toMatchObject({ status: "done", attempts: 1, last_status_code: 204 });
    expect(after.body.attempt_history.map((a: { attempt: number }) => a.attempt)).toEqual([1, 2, 3, 4]);
    await saveScreenshot(page, "console-data-delivery-retried");
    await page.keyboard.press("Escape");
    await drawer.waitFor({ state: "hidden" });
    await settle(page);
    await console_.expectAccessible("the webhook page");
    await saveScreenshot(page, "console-data-webhook");

    // Rotate: confirm, the new secret shows once, and is gone from the page after Done.
    await page.getByRole("button", { name: "Rotate secret" }).click();
    const dialog = page.getByRole("dialog", { name: "Rotate the signing secret" });
    await dialog.getByRole("button", { name: "Rotate now" }).click();
    const shown = dialog.getByText(/^whsec_/);
    await shown.waitFor();
    const newSecret = (await shown.textContent()) ?? "";
    expect(newSecret).toMatch(/^whsec_/);
    await settle(page);
    await console_.expectAccessible("the rotate-secret dialog");
    await saveScreenshot(page, "console-data-rotated-secret");
    await dialog.getByRole("button", { name: "Done" }).click();
    await dialog.waitFor({ state: "hidden" });
    await settle(page);
    expect(await page.content()).not.toContain(newSecret);

    // Only the rotate answer carried a secret: never the one the endpoint was created with.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(answers.length).toBeGreaterThan(10);
    expect(answers.filter((text) => text.includes(endpoint.secret))).toEqual([]);
    expect(answers.filter((text) => text.includes(newSecret))).toHaveLength(1);
    expect(answers.filter((text) => text.includes("whsec_"))).toHaveLength(1);
  });
});
