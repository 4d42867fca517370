import { browserAvailable, launchBrowser, saveScreenshot, startWebhookReceiver, waitUntil, type ReceivedWebhook, type WebhookReceiver } from "@svc/testing";
import type { Browser } from "playwright-core";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/test-service.ts";

// The whole flow with the built-in demo provider, black box: only the spec's routes, a real
// browser for the consent, and a real webhook receiver. Connect, consent, backfill, records
// readable, data.written delivered, a re-pull that changes nothing past, disconnect with
// delete_data, data.erased.

let svc: TestService;
let key: string;
let browser: Browser;
let hooks: WebhookReceiver;
/** Plays the tenant's app: where the browser lands after the consent. */
let app: WebhookReceiver;
let verifier: Webhook;

const DAY = 86_400_000;
/** What a month of demo data writes: every collection's records. */
const WRITTEN_TYPES = [
  "active_energy_burned",
  "body_fat_percentage",
  "body_mass",
  "daily_summary",
  "distance_walking_running",
  "heart_rate",
  "hrv_rmssd",
  "oxygen_saturation",
  "respiratory_rate",
  "resting_heart_rate",
  "sleep_session",
  "step_count",
  "workout",
];

describe.skipIf(!browserAvailable())("the demo provider end to end", () => {
  beforeAll(async () => {
    svc = await startTestService({ SVC_WEBHOOK_ALLOW_PRIVATE: "true" });
    key = (await svc.createTenant()).api_key;
    hooks = await startWebhookReceiver();
    app = await startWebhookReceiver();
    browser = await launchBrowser();
    const endpoint = await svc.call("/v1/webhooks", { key, body: { url: hooks.url } });
    expect(endpoint.status, endpoint.text).toBe(201);
    verifier = new Webhook(endpoint.body.secret);
  });
  afterAll(async () => {
    await browser?.close();
    await hooks?.close();
    await app?.close();
    await svc?.stop();
  });

  /** Every event the receiver got, signatures checked. */
  const events = (): Array<{ type: string; data: Record<string, any> }> =>
    hooks.requests.map((request: ReceivedWebhook) => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      return verifier.verify(request.body.toString("utf8"), headers) as { type: string; data: Record<string, any> };
    });

  /** Waits until no event has arrived for 2 seconds (the ETL and deliveries of what was pulled are through). */
  const quiet = async () => {
    let count = -1;
    let since = Date.now();
    await waitUntil(
      async () => {
        if (hooks.requests.length !== count) {
          count = hooks.requests.length;
          since = Date.now();
        }
        return Date.now() - since > 2000;
      },
      60_000,
      "quiet webhooks",
    );
  };

  const samples = async (user: string, type: string, start: Date, end: Date) => {
    const answer = await svc.call(`/v1/users/${user}/samples?type=${type}&start=${start.toISOString()}&end=${end.toISOString()}&limit=1000`, { key });
    expect(answer.status, answer.text).toBe(200);
    return answer.body.data as Array<Record<string, any>>;
  };

  it("connects, backfills a month, serves it, announces it, and erases it on disconnect", async () => {
    const providers = await svc.call("/v1/providers", { key });
    expect(providers.status).toBe(200);
    expect(JSON.stringify(providers.body)).toContain('"demo"');

    const user = (await svc.call("/v1/users", { key, body: { external_ref: "demo-flow" } })).body.id as string;
    const redirectUri = `http://localhost:${app.port}/connected`;
    const started = await svc.call(`/v1/users/${user}/connections/demo`, { key, body: { redirect_uri: redirectUri } });
    expect(started.status, started.text).toBe(200);
    expect(started.body.authorize_url.startsWith(`${svc.url}/demo/oauth/authorize?`)).toBe(true);

    // The person's browser: the consent page, Allow, the instance's callback, back to the app.
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(started.body.authorize_url);
    await saveScreenshot(page, "demo-flow-consent");
    await page.getByRole("button", { name: "Allow" }).click();
    await page.waitForURL((url) => url.href.startsWith(redirectUri));
    const landed = new URL(page.url());
    expect(Object.fromEntries(landed.searchParams)).toEqual({ status: "connected", provider: "demo" });
    await context.close();

    const connections = await svc.call(`/v1/users/${user}/connections`, { key });
    expect(connections.body.data).toEqual([expect.objectContaining({ provider: "demo", status: "active" })]);
    expect(connections.body.data[0].scopes.sort()).toEqual(["activity", "body", "heart", "sleep", "workouts"]);

    // The initial backfill: one run over 30 days, succeeded.
    let runs: Array<Record<string, any>> = [];
    await waitUntil(
      async () => {
        runs = (await svc.call(`/v1/users/${user}/sync-runs`, { key })).body.data;
        return runs.some((run) => run.trigger === "backfill" && run.status === "succeeded");
      },
      60_000,
      "the backfill run",
    );
    const backfill = runs.find((run) => run.trigger === "backfill")!;
    expect(Date.parse(backfill.window_end) - Date.parse(backfill.window_start)).toBeGreaterThanOrEqual(30 * DAY - 1000);
    expect(backfill.objects_stored).toBeGreaterThan(10);

    // Records readable once the ETL is through: a night per day, heart rate every 5 minutes in the daytime.
    const monthEnd = new Date(Date.parse(backfill.window_end));
    const monthStart = new Date(monthEnd.getTime() - 30 * DAY);
    let nights: Array<Record<string, any>> = [];
    await waitUntil(
      async () => {
        nights = (await svc.call(`/v1/users/${user}/sleep?start=${monthStart.toISOString()}&end=${monthEnd.toISOString()}&limit=100`, { key })).body.data;
        const types = new Set(events().flatMap((event) => (event.type === "data.written" ? event.data.types : [])));
        return nights.length >= 29 && WRITTEN_TYPES.every((type) => types.has(type));
      },
      60_000,
      "the backfill's records and data.written events",
    );
    await quiet();
    expect(nights.every((night) => night.provider === "demo")).toBe(true);
    const pastDay = { start: new Date(monthStart.getTime() + 10 * DAY), end: new Date(monthStart.getTime() + 11 * DAY) };
    const heartRates = await samples(user, "heart_rate", pastDay.start, pastDay.end);
    expect(heartRates.length).toBeGreaterThan(150);
    expect(heartRates[0]).toMatchObject({ provider: "demo", unit: "count/min" });
    const steps = await samples(user, "step_count", monthStart, monthEnd);
    expect(steps.length).toBeGreaterThan(300);

    // data.written per stored payload, thin: the user, the provider, tables and days, never a value.
    const written = events().filter((event) => event.type === "data.written");
    expect(written.every((event) => event.data.user_id === user && event.data.provider === "demo" && event.data.external_ref === "demo-flow")).toBe(true);
    // One per stored payload, unless a payload only repeated records (the 7-day requests share their edge days).
    expect(written.length).toBeGreaterThan(backfill.objects_stored / 2);
    expect(written.length).toBeLessThanOrEqual(backfill.objects_stored);
    expect(JSON.stringify(written)).not.toMatch(/"value"/);

    // A manual re-pull of the last week gives the same past data: nothing new before today.
    const before = events().length;
    const repull = await svc.call(`/v1/users/${user}/connections/demo/sync`, { key, body: { from: new Date(Date.now() - 7 * DAY).toISOString() } });
    expect([200, 201, 202]).toContain(repull.status);
    await waitUntil(
      async () => (await svc.call(`/v1/users/${user}/sync-runs/${repull.body.id}`, { key })).body.status === "succeeded",
      60_000,
      "the manual run",
    );
    await quiet();
    // Only today's figures can move (its total energy grows with the day, a new hour or sample may be over):
    // a re-write of the week would be thousands of records.
    const rewritten = events()
      .slice(before)
      .filter((event) => event.type === "data.written")
      .flatMap((event) => Object.values(event.data.records as Record<string, number>))
      .reduce((sum, count) => sum + count, 0);
    expect(rewritten).toBeLessThan(100);
    expect(await samples(user, "heart_rate", pastDay.start, pastDay.end)).toEqual(heartRates);

    // Disconnect and erase: 202 with the job, data.erased at the end, nothing of demo left.
    const disconnected = await svc.call(`/v1/users/${user}/connections/demo?delete_data=true`, { key, method: "DELETE" });
    expect(disconnected.status, disconnected.text).toBe(202);
    const jobId = disconnected.body.job_id as string;
    await waitUntil(async () => (await svc.call(`/v1/deletions/${jobId}`, { key })).body.status === "done", 60_000, "the erasure job");
    await hooks.waitFor((requests) => requests.length > 0 && events().some((event) => event.type === "data.erased"), 30_000);
    expect(events().find((event) => event.type === "data.erased")!.data).toMatchObject({ user_id: user, provider: "demo", job_id: jobId });
    expect(await samples(user, "heart_rate", monthStart, monthEnd)).toEqual([]);
    expect((await svc.call(`/v1/users/${user}/sleep?start=${monthStart.toISOString()}&end=${monthEnd.toISOString()}`, { key })).body.data).toEqual([]);
    expect((await svc.call(`/v1/users/${user}/connections`, { key })).body.data.filter((c: { status: string }) => c.status !== "disconnected")).toEqual([]);
  }, 180_000);
});
