// W3C trace context, black box. With tracing on (the server as its own process, as in
// production, exporting OTLP/HTTP JSON to a local collector) a `traceparent` joins the call to
// the caller's trace, and the trace follows the jobs the call enqueued into the calls they make
// to providers and webhook receivers. With tracing off the header is ignored. Either way the
// answer carries no trace header.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTenant } from "@svc/core";
import { createDatabase, type Database } from "@svc/db";
import { createTestDatabase, recordSecrets, replies, startWebhookReceiver, waitUntil, type WebhookReceiver } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServiceProcess, type ServiceProcess } from "../helpers/service-process.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { TEST_ENCRYPTION_KEY } from "../helpers/webhooks.ts";

/** OTLP span kinds. */
const SERVER = 2;
const CLIENT = 3;
const CONSUMER = 5;
const TRACE_HEADERS = ["traceparent", "tracestate", "traceresponse"];

interface ExportedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
}

/** A caller's span context: its traceparent and the ids in it. */
function callerContext() {
  const traceId = randomBytes(16).toString("hex");
  const spanId = randomBytes(8).toString("hex");
  return { traceId, spanId, traceparent: `00-${traceId}-${spanId}-01` };
}

function traceIdOf(traceparent: unknown): string | undefined {
  return typeof traceparent === "string" ? /^00-([0-9a-f]{32})-[0-9a-f]{16}-0[01]$/.exec(traceparent)?.[1] : undefined;
}

/** Every span the collector received: OTLP/HTTP JSON bodies (ids in hex). */
function spansOf(collector: WebhookReceiver): ExportedSpan[] {
  return collector.requests.flatMap((request) => {
    const body = JSON.parse(request.body.toString("utf8")) as {
      resourceSpans?: Array<{ scopeSpans?: Array<{ spans?: Array<Omit<ExportedSpan, "attributes"> & { attributes?: Array<{ key: string; value: Record<string, unknown> }> }> }> }>;
    };
    return (body.resourceSpans ?? []).flatMap((resource) =>
      (resource.scopeSpans ?? []).flatMap((scope) =>
        (scope.spans ?? []).map((span) => ({
          ...span,
          attributes: Object.fromEntries((span.attributes ?? []).map(({ key, value }) => [key, Object.values(value)[0]])),
        })),
      ),
    );
  });
}

/** A request body sent in parts, 200 ms apart. */
function slowBody(parts: string[]): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    async pull(controller) {
      if (sent > 0) await new Promise((resolve) => setTimeout(resolve, 200));
      if (sent === parts.length) return controller.close();
      controller.enqueue(new TextEncoder().encode(parts[sent++]));
    },
  });
}

function expectNoTraceHeaders(headers: Headers) {
  for (const name of TRACE_HEADERS) expect(headers.get(name), name).toBeNull();
}

describe("tracing on", () => {
  let databaseUrl: string;
  let db: Database;
  let dataDir: string;
  let collector: WebhookReceiver;
  let hooks: WebhookReceiver;
  let svc: ServiceProcess;
  let key: string;

  const call = (route: string, init: { method?: string; key?: string; body?: unknown; traceparent?: string } = {}) =>
    fetch(`${svc.url}${route}`, {
      method: init.method ?? (init.body === undefined ? "GET" : "POST"),
      headers: {
        ...(init.key && { authorization: `Bearer ${init.key}` }),
        ...(init.body !== undefined && { "content-type": "application/json" }),
        ...(init.traceparent && { traceparent: init.traceparent }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      redirect: "manual",
    });

  const spansWith = async (what: string, check: (spans: ExportedSpan[]) => boolean): Promise<ExportedSpan[]> => {
    await waitUntil(() => check(spansOf(collector)), 30_000, what);
    return spansOf(collector);
  };

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    db = createDatabase(databaseUrl, { max: 2 });
    dataDir = mkdtempSync(path.join(tmpdir(), "svc-tracing-"));
    collector = await startWebhookReceiver(replies.status(200, "{}", { "content-type": "application/json" }));
    hooks = await startWebhookReceiver();
    const tenant = await createTenant(db, "tracing");
    recordSecrets(tenant.api_key);
    key = tenant.api_key;

    svc = await startServiceProcess({
      DATABASE_URL: databaseUrl,
      SVC_DATA_DIR: dataDir,
      SVC_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      SVC_WEBHOOK_ALLOW_PRIVATE: "true",
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collector.port}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_BSP_SCHEDULE_DELAY: "100",
      OTEL_SERVICE_NAME: "svc-tracing-test",
    });
    expect(svc.output.join("")).toContain("tracing on");
  }, 60_000);

  afterAll(async () => {
    await svc?.stop();
    await collector?.close();
    await hooks?.close();
    await db?.$disconnect();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("joins a request to the caller's trace, adds nothing to the answer, and exports the service's name", async () => {
    const caller = callerContext();
    const answer = await call("/v1/users", { key, body: { external_ref: "traced" }, traceparent: caller.traceparent });
    expect(answer.status).toBe(201);
    expectNoTraceHeaders(answer.headers);

    const spans = await spansWith("the request's span", (all) => all.some((span) => span.traceId === caller.traceId && span.kind === SERVER));
    const server = spans.find((span) => span.traceId === caller.traceId && span.kind === SERVER)!;
    expect(server.parentSpanId).toBe(caller.spanId);
    expect(server.name).toBe("POST /v1/users");
    // Method, route and status only: the path and query of a request are never recorded.
    expect(server.attributes).toEqual({ "http.request.method": "POST", "http.route": "/v1/users", "http.response.status_code": 201 });
    const resource = JSON.parse(collector.requests[0]!.body.toString("utf8")).resourceSpans[0].resource;
    expect(resource.attributes).toContainEqual({ key: "service.name", value: { stringValue: "svc-tracing-test" } });
  });

  it("runs a job the request enqueued in the same trace", async () => {
    const user = (await (await call("/v1/users", { key, body: {} })).json()) as { id: string };
    const caller = callerContext();
    const answer = await call(`/v1/users/${user.id}`, { method: "DELETE", key, traceparent: caller.traceparent });
    expect(answer.status).toBe(202);
    expectNoTraceHeaders(answer.headers);

    const spans = await spansWith("the deletion job's span", (all) =>
      all.some((span) => span.traceId === caller.traceId && span.kind === CONSUMER && span.name === "process user-delete"),
    );
    const server = spans.find((span) => span.traceId === caller.traceId && span.kind === SERVER)!;
    const job = spans.find((span) => span.traceId === caller.traceId && span.kind === CONSUMER)!;
    expect(server).toMatchObject({ name: "DELETE /v1/users/{id}", parentSpanId: caller.spanId });
    expect(job.parentSpanId).toBe(server.spanId);
    expect(job.attributes).toMatchObject({ "messaging.system": "pg-boss", "messaging.destination.name": "user-delete" });
  });

  it("sends the trace to a webhook receiver, from the delivery job the request enqueued", async () => {
    const endpoint = await call("/v1/webhooks", { key, body: { url: hooks.url, event_types: ["webhook.test"] } });
    expect(endpoint.status).toBe(201);
    const { id } = (await endpoint.json()) as { id: string };
    const caller = callerContext();
    // The body comes in two parts, the second later: the body parser continues from a stream
    // event of its own, which must still run in the request's span.
    const answer = await fetch(`${svc.url}/v1/webhooks/${id}/test`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", traceparent: caller.traceparent },
      body: slowBody(['{"event_type":', '"webhook.test"}']),
      duplex: "half",
    } as RequestInit);
    expect(answer.status).toBeLessThan(300);
    expectNoTraceHeaders(answer.headers);

    await hooks.waitFor((requests) => requests.some((request) => traceIdOf(request.headers.traceparent) === caller.traceId), 30_000);
    const delivered = hooks.requests.find((request) => traceIdOf(request.headers.traceparent) === caller.traceId)!;
    const spans = await spansWith("the delivery's spans", (all) =>
      all.some((span) => span.traceId === caller.traceId && span.kind === CONSUMER && span.name === "process webhook-deliver"),
    );
    const post = spans.find((span) => span.traceId === caller.traceId && span.kind === CLIENT)!;
    // The receiver's parent is the delivery's own client span, inside the delivery job's span.
    expect(String(delivered.headers.traceparent).split("-")[2]).toBe(post.spanId);
    const job = spans.find((span) => span.spanId === post.parentSpanId)!;
    expect(job).toMatchObject({ kind: CONSUMER, name: "process webhook-deliver" });
    expect(post.attributes).toMatchObject({ "http.request.method": "POST", "server.address": "127.0.0.1", "http.response.status_code": 200 });
  });

  it("carries the trace through a consent into the sync job's calls to the provider", async () => {
    const user = (await (await call("/v1/users", { key, body: {} })).json()) as { id: string };
    const redirectUri = "http://localhost:9/connected";
    const started = await call(`/v1/users/${user.id}/connections/demo`, { key, body: { redirect_uri: redirectUri } });
    expect(started.status).toBe(200);
    const authorizeUrl = new URL(((await started.json()) as { authorize_url: string }).authorize_url);
    // The consent page's form, as the person's browser posts it after "Allow".
    const consent = await fetch(`${svc.url}/demo/oauth/authorize`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams([...authorizeUrl.searchParams, ["decision", "allow"]]),
      redirect: "manual",
    });
    expect(consent.status).toBe(303);
    const callback = consent.headers.get("location")!;

    const caller = callerContext();
    const back = await fetch(callback, { headers: { traceparent: caller.traceparent }, redirect: "manual" });
    expect(back.status).toBe(303);
    expect(back.headers.get("location")).toContain("status=connected");
    expectNoTraceHeaders(back.headers);

    // The demo provider's API is served by this same process: its server spans are children
    // of the client spans of the callback (the token exchange, the profile) and of the sync
    // job the callback enqueued, all in the caller's trace.
    const callbackOf = (all: ExportedSpan[]) => all.find((span) => span.traceId === caller.traceId && span.parentSpanId === caller.spanId);
    const pullOf = (all: ExportedSpan[]) =>
      all.find((span) => span.kind === CONSUMER && span.name === "process sync-pull" && span.parentSpanId === callbackOf(all)?.spanId);
    const spans = await spansWith("the sync job's span", (all) => pullOf(all) !== undefined);
    const inTrace = spans.filter((span) => span.traceId === caller.traceId);
    const callbackSpan = callbackOf(spans)!;
    expect(callbackSpan).toMatchObject({ kind: SERVER, name: "GET /oauth/:provider/callback" });
    const tokenCall = inTrace.find((span) => span.kind === CLIENT && span.parentSpanId === callbackSpan.spanId && span.attributes["http.request.method"] === "POST")!;
    expect(inTrace.find((span) => span.parentSpanId === tokenCall.spanId)).toMatchObject({ kind: SERVER, name: "POST /demo/oauth/token" });
    const pull = pullOf(spans)!;
    expect(pull.traceId).toBe(caller.traceId);
    const providerCall = inTrace.find((span) => span.kind === CLIENT && span.parentSpanId === pull.spanId)!;
    expect(providerCall.attributes).toMatchObject({ "http.request.method": "GET", "server.address": "127.0.0.1", "http.response.status_code": 200 });
    const served = inTrace.find((span) => span.kind === SERVER && span.parentSpanId === providerCall.spanId)!;
    expect(served.name).toMatch(/^GET \/demo\/api\//);
  });
});

describe("tracing off", () => {
  let svc: TestService;
  let hooks: WebhookReceiver;

  beforeAll(async () => {
    svc = await startTestService({ SVC_WEBHOOK_ALLOW_PRIVATE: "true" });
    hooks = await startWebhookReceiver();
  });
  afterAll(async () => {
    await hooks?.close();
    await svc?.stop();
  });

  it("ignores a traceparent: nothing in the answer, the job or the webhook", async () => {
    const { api_key: key } = await svc.createTenant();
    const caller = callerContext();
    const headers = { traceparent: caller.traceparent };
    const endpoint = await svc.call("/v1/webhooks", { key, body: { url: hooks.url, event_types: ["webhook.test"] }, headers });
    expect(endpoint.status).toBe(201);
    expectNoTraceHeaders(endpoint.headers);
    const test = await svc.call(`/v1/webhooks/${endpoint.body.id}/test`, { key, body: {}, headers });
    expect(test.status).toBeLessThan(300);
    expectNoTraceHeaders(test.headers);

    await hooks.waitFor((requests) => requests.length > 0, 30_000);
    for (const name of TRACE_HEADERS) expect(hooks.requests[0]!.headers[name], name).toBeUndefined();
    const jobs = await svc.db.$queryRawUnsafe<Array<{ data: Record<string, unknown> }>>(
      `SELECT data FROM pgboss.job WHERE name = 'webhook-deliver'`,
    );
    expect(jobs.length).toBeGreaterThan(0);
    for (const job of jobs) expect(Object.keys(job.data)).toEqual(["delivery_id"]);
  });
});
