// Fault test: a provider answers only 500s and 429s (with Retry-After) for a sustained period,
// then recovers. Sync runs retry and wait as rate_limited, the connection turns broken
// (health.healthy false, connection.broken delivered to a real webhook receiver), and once the
// provider answers again the next pull succeeds: connection.restored and data.written delivered.
// Time is scaled down: the production retry ladder of minutes and hours (DEFAULT_SYNC_SETTINGS)
// is fractions of a second here, and "minutes" of outage are several failed runs in a row.
import { createTenant, DEFAULT_SYNC_SETTINGS, providerCatalogOf, type Connector, type SyncSettings } from "@svc/core";
import type { JobQueue } from "@svc/jobs";
import { PROVIDER_REGISTRY } from "@svc/providers";
import { startWebhookReceiver, waitUntil, type WebhookReceiver } from "@svc/testing";
import { HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { expect, it } from "vitest";
import { createUser } from "../helpers/records.ts";
import { FakeSyncProvider, insertConnection, queueRun, runRow, SYNCTEST, SYNCTEST_ENV } from "../helpers/sync-provider.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { insertEndpoint, startTestQueue } from "../helpers/webhooks.ts";

/** Failed runs in a row before the provider recovers: the outage outlasts a whole run's retries more than once. */
const FAILED_RUNS = 3;

/** Three attempts a run, a fraction of a second apart; the connection breaks after three failed attempts in a row. */
const OUTAGE_SYNC: SyncSettings = {
  ...DEFAULT_SYNC_SETTINGS,
  retryDelaysMs: [300, 300],
  rateLimitedDefaultMs: 300,
  brokenAfterFailures: 3,
};

/** A payload format this build's ETL parses: the demo provider's heart pages (the ETL reads payloads by the registry's parsers, not a test catalog's). */
const HEART_FORMAT = "demo-heart";

/** The sync test provider with a quota the outage cannot spend, storing its pages as heart pages. */
const OUTAGE_PROVIDER: Connector = {
  ...SYNCTEST,
  rateLimits: { app: { requests: 100_000, windowSeconds: 3600 } },
  pull: (context) => SYNCTEST.pull({ ...context, store: (_format, page) => context.store(HEART_FORMAT, page) }),
  parsers: { [HEART_FORMAT]: PROVIDER_REGISTRY.payloadParser(HEART_FORMAT)! },
};
/** Without the demo provider, whose format the outage provider borrows. */
const CATALOG = providerCatalogOf([...PROVIDER_REGISTRY.all().filter((descriptor) => descriptor.slug !== "demo"), OUTAGE_PROVIDER]);

type EventBody = { type: string; data: Record<string, unknown> };
const eventsOf = (receiver: WebhookReceiver, type: string): EventBody[] =>
  receiver.requests.map((request) => JSON.parse(request.body.toString()) as EventBody).filter((event) => event.type === type);

it("breaks the connection while the provider answers 500 and 429, restores it when the provider recovers", { timeout: 90_000 }, async () => {
  const provider = new FakeSyncProvider();
  const msw = setupServer(...provider.handlers());
  msw.listen({ onUnhandledRequest: "bypass" });
  const receiver = await startWebhookReceiver();
  let svc: TestService | undefined;
  let jobs: JobQueue | undefined;
  try {
    svc = await startTestService(
      { ...SYNCTEST_ENV, SVC_WEBHOOK_ALLOW_PRIVATE: "true" },
      { providers: CATALOG, syncSettings: OUTAGE_SYNC },
    );
    const service = svc;
    jobs = await startTestQueue(svc);
    const tenant = await createTenant(svc.db, "outage");
    await insertEndpoint(svc, tenant.tenant_id, receiver.url);
    const userId = await createUser(svc, tenant.api_key);
    const connectionId = await insertConnection(svc, { userId, tokens: provider.grant() });

    // The outage: every data request is refused, 500 and 429 (Retry-After: 1 s) in turn.
    const answered: number[] = [];
    provider.onData = () => {
      const status = answered.length % 2 === 0 ? 500 : 429;
      answered.push(status);
      return new HttpResponse(null, { status, headers: status === 429 ? { "Retry-After": "1" } : {} });
    };
    // A scheduled pull after another, as the planner queues them while the connection only waits.
    const statesSeen = new Set<string>();
    const hour = () => ({ start: new Date(Date.now() - 3600_000), end: new Date() });
    for (let i = 0; i < FAILED_RUNS; i++) {
      const run = await queueRun(svc, jobs, { connectionId, userId, trigger: "scheduled", ...hour() }, OUTAGE_SYNC);
      await waitUntil(
        async () => {
          const row = await runRow(service, run.id);
          statesSeen.add(row.status);
          return row.status === "failed";
        },
        30_000,
        `failed run ${i + 1}`,
      );
    }
    expect(statesSeen).toContain("retrying");
    expect(statesSeen).toContain("rate_limited");
    expect(answered).toContain(500);
    expect(answered).toContain(429);

    const listed = await svc.call(`/v1/users/${userId}/connections`, { key: tenant.api_key });
    expect(listed.status, listed.text).toBe(200);
    const health = listed.body.data.find((connection: { provider: string }) => connection.provider === "synctest").health;
    expect(health).toMatchObject({ healthy: false, reason: "pulls_failing", action: "wait" });
    await receiver.waitFor(() => eventsOf(receiver, "connection.broken").length > 0, 15_000);
    expect(eventsOf(receiver, "connection.broken")[0]!.data).toMatchObject({ user_id: userId, provider: "synctest", reason: "pulls_failing" });

    // The provider recovers: the next pull stores a page of samples.
    const samples = [{ time: "2026-03-01T08:00:00Z", bpm: 61 }, { time: "2026-03-01T08:01:00Z", bpm: 63 }];
    provider.onData = () => HttpResponse.json({ items: [], next: null, timezone: "UTC", data: [{ id: "2026-03-01", samples }] });
    const healed = await queueRun(svc, jobs, { connectionId, userId, trigger: "scheduled", ...hour() }, OUTAGE_SYNC);
    await waitUntil(async () => (await runRow(service, healed.id)).status === "succeeded", 30_000, "the pull after the outage");
    await receiver.waitFor(() => eventsOf(receiver, "connection.restored").length > 0 && eventsOf(receiver, "data.written").length > 0, 15_000);

    // One broken episode: one connection.broken (none for the later failed runs), one restored.
    expect(eventsOf(receiver, "connection.broken")).toHaveLength(1);
    expect(eventsOf(receiver, "connection.restored")).toHaveLength(1);
    expect(eventsOf(receiver, "connection.restored")[0]!.data).toMatchObject({ user_id: userId, provider: "synctest", previous_reason: "pulls_failing" });
    expect(eventsOf(receiver, "data.written")[0]!.data).toMatchObject({ user_id: userId, provider: "synctest", records: { quantity_samples: 2 } });
    const after = await svc.call(`/v1/users/${userId}/connections`, { key: tenant.api_key });
    expect(after.body.data.find((connection: { provider: string }) => connection.provider === "synctest").health).toMatchObject({ healthy: true });
  } finally {
    await jobs?.stop();
    await svc?.stop();
    await receiver.close();
    msw.close();
  }
});
