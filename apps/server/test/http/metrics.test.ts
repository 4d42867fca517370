// Metrics, black box: the server as its own process (SVC_ROLE=all: the API on the main thread,
// the jobs in the etl thread), with SVC_METRICS_PORT set and tracing on towards a local OTLP
// collector. A scrape of GET /metrics parses as Prometheus text, labels requests by route
// template, and has the etl thread's jobs and webhook attempts next to the API's requests; the
// same series arrive over OTLP. The public listener never serves /metrics.
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { JOB_CATALOG } from "@svc/jobs";
import { createTenant } from "@svc/core";
import { createDatabase, type Database } from "@svc/db";
import { createTestDatabase, recordSecrets, replies, startWebhookReceiver, waitUntil, type WebhookReceiver } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parsePrometheusText, samplesOf, type Family } from "../helpers/prometheus-text.ts";
import { logLines, post, startServiceProcess, type ServiceProcess } from "../helpers/service-process.ts";
import { startTestService } from "../helpers/test-service.ts";
import { TEST_ENCRYPTION_KEY } from "../helpers/webhooks.ts";

describe("metrics on (SVC_METRICS_PORT, and OTLP with tracing on)", () => {
  let databaseUrl: string;
  let db: Database;
  let dataDir: string;
  let collector: WebhookReceiver;
  let hooks: WebhookReceiver;
  let svc: ServiceProcess;
  let metricsUrl: string;
  let key: string;
  let userId: string;
  const externalRef = `ref-${randomUUID()}`;

  const scrape = async (): Promise<{ text: string; families: Map<string, Family> }> => {
    const answer = await fetch(metricsUrl);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
    const text = await answer.text();
    return { text, families: parsePrometheusText(text) };
  };

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    db = createDatabase(databaseUrl, { max: 2 });
    dataDir = mkdtempSync(path.join(tmpdir(), "svc-metrics-"));
    collector = await startWebhookReceiver(replies.status(200, "{}", { "content-type": "application/json" }));
    hooks = await startWebhookReceiver();
    const tenant = await createTenant(db, "metrics");
    recordSecrets(tenant.api_key);
    key = tenant.api_key;

    svc = await startServiceProcess({
      DATABASE_URL: databaseUrl,
      SVC_DATA_DIR: dataDir,
      SVC_ENCRYPTION_KEY: TEST_ENCRYPTION_KEY,
      SVC_WEBHOOK_ALLOW_PRIVATE: "true",
      SVC_METRICS_PORT: "0",
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${collector.port}`,
      OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
      OTEL_METRIC_EXPORT_INTERVAL: "500",
      OTEL_SERVICE_NAME: "svc-metrics-test",
    });
    await waitUntil(() => logLines(svc).some((line) => line.msg === "metrics served"), 10_000, "the metrics listener");
    metricsUrl = logLines(svc).find((line) => line.msg === "metrics served")!.url as string;

    // Requests of several routes and statuses, and a webhook delivered by the etl thread.
    userId = (await post(svc, "/v1/users", key, { external_ref: externalRef })).id;
    expect((await fetch(`${svc.url}/v1/users/${userId}`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    expect((await fetch(`${svc.url}/v1/users/${randomUUID()}/`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(404);
    expect((await fetch(`${svc.url}/v1/users?limit=1`)).status).toBe(401);
    expect((await fetch(`${svc.url}/no/such/${userId}`)).status).toBe(404);
    const endpoint = await post(svc, "/v1/webhooks", key, { url: hooks.url, event_types: ["webhook.test"] });
    await post(svc, `/v1/webhooks/${endpoint.id}/test`, key, {});
    await hooks.waitFor((requests) => requests.length > 0, 30_000);
  }, 90_000);

  afterAll(async () => {
    await svc?.stop();
    await collector?.close();
    await hooks?.close();
    await db?.$disconnect();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it("labels requests by method, route template and status: never a path, an id or a secret", async () => {
    const { text, families } = await scrape();
    const requests = families.get("svc_http_request_duration_seconds");
    expect(requests?.type).toBe("histogram");
    const count = (labels: Record<string, string>) => samplesOf(requests, "svc_http_request_duration_seconds_count", labels)[0]?.value;
    expect(count({ method: "POST", route: "/v1/users", status: "201" })).toBe(1);
    expect(count({ method: "GET", route: "/v1/users/{id}", status: "200" })).toBe(1);
    expect(count({ method: "GET", route: "/v1/users/{id}", status: "404" })).toBe(1);
    expect(count({ method: "GET", route: "/v1/users", status: "401" })).toBe(1);
    expect(count({ method: "GET", route: "unmatched", status: "404" })).toBe(1);
    expect(count({ method: "POST", route: "/v1/webhooks/{webhook_id}/test" })).toBe(1);
    // The probes are not counted.
    expect(samplesOf(requests, "svc_http_request_duration_seconds_count").map((sample) => sample.labels.route)).not.toContain("/healthz");
    expect(text).not.toContain(userId);
    expect(text).not.toContain(key);
    expect(text).not.toContain(externalRef);
  });

  it("has the etl thread's jobs and webhook attempts, the instance's queues and backlog, both pools and the process", async () => {
    // The jobs run in the etl thread: the process asks it for its metrics at each scrape.
    let families = (await scrape()).families;
    await waitUntil(
      async () => {
        families = (await scrape()).families;
        return samplesOf(families.get("svc_webhook_attempt_duration_seconds"), "svc_webhook_attempt_duration_seconds_count", { outcome: "delivered" }).length > 0;
      },
      10_000,
      "the delivery in the scrape",
    );
    expect(samplesOf(families.get("svc_webhook_attempt_duration_seconds"), "svc_webhook_attempt_duration_seconds_count", { outcome: "delivered" })[0]!.value).toBe(1);
    const jobs = families.get("svc_job_duration_seconds");
    expect(samplesOf(jobs, "svc_job_duration_seconds_count", { queue: "webhook-deliver", outcome: "completed" })[0]!.value).toBeGreaterThanOrEqual(1);

    const depths = families.get("svc_job_queue_depth")!;
    expect(depths.type).toBe("gauge");
    expect(new Set(depths.samples.map((sample) => sample.labels.queue))).toEqual(new Set(Object.keys(JOB_CATALOG)));
    expect(new Set(depths.samples.map((sample) => sample.labels.state))).toEqual(new Set(["ready", "deferred", "active"]));
    const backlog = families.get("svc_etl_raw_objects")!;
    expect(backlog.samples.map((sample) => sample.labels.state).sort()).toEqual(["parked", "pending", "running"]);
    for (const sample of [...depths.samples, ...backlog.samples]) expect(sample.value).toBeGreaterThanOrEqual(0);

    // One pool per thread: the API's and the etl thread's.
    const pools = families.get("svc_db_pool_max_connections")!;
    expect(pools.samples.map((sample) => [sample.labels.role, sample.value]).sort()).toEqual([["api", 10], ["etl", 10]]);
    for (const name of ["svc_db_pool_connections", "svc_db_pool_idle_connections", "svc_db_pool_waiting_queries"]) {
      expect(families.get(name)!.samples.map((sample) => sample.labels.role).sort()).toEqual(["api", "etl"]);
    }
    for (const name of ["process_cpu_user_seconds_total", "process_resident_memory_bytes", "process_start_time_seconds", "nodejs_heap_size_used_bytes", "nodejs_eventloop_lag_p99_seconds"]) {
      expect(families.get(name)?.samples.length, name).toBeGreaterThan(0);
    }
  });

  it("serves nothing else on the metrics listener, and no /metrics on the public one", async () => {
    expect((await fetch(metricsUrl.replace("/metrics", "/other"))).status).toBe(404);
    expect((await fetch(metricsUrl, { method: "POST" })).status).toBe(405);
    expect((await fetch(`${svc.url}/metrics`)).status).toBe(404);
  });

  it("exports the same series over OTLP, with the service's resource", async () => {
    type Point = { attributes: Array<{ key: string; value: Record<string, unknown> }>; count?: number; bucketCounts?: number[]; explicitBounds?: number[] };
    type Metric = { name: string; histogram?: { dataPoints: Point[] }; gauge?: { dataPoints: Point[] } };
    type Export = { resourceMetrics: Array<{ resource: { attributes: Array<{ key: string; value: Record<string, unknown> }> }; scopeMetrics: Array<{ metrics: Metric[] }> }> };
    const exports = () => collector.requests.filter((request) => request.url === "/v1/metrics").map((request) => JSON.parse(request.body.toString("utf8")) as Export);
    const metricOf = (body: Export, name: string) => body.resourceMetrics.flatMap((resource) => resource.scopeMetrics.flatMap((scope) => scope.metrics)).find((metric) => metric.name === name);
    const label = (point: Point, key: string) => point.attributes.find((attribute) => attribute.key === key)?.value.stringValue;
    const route = (point: Point) => label(point, "route");
    await waitUntil(() => exports().some((body) => metricOf(body, "svc_http_request_duration_seconds")?.histogram?.dataPoints.some((point) => route(point) === "/v1/users/{id}")), 15_000, "an OTLP export with the requests");

    const latest = exports().at(-1)!;
    expect(latest.resourceMetrics[0]!.resource.attributes).toContainEqual({ key: "service.name", value: { stringValue: "svc-metrics-test" } });
    const requests = metricOf(latest, "svc_http_request_duration_seconds")!.histogram!.dataPoints;
    const created = requests.find((point) => route(point) === "/v1/users" && label(point, "method") === "POST")!;
    expect(label(created, "status")).toBe("201");
    expect(Number(created.count)).toBe(1);
    expect(created.explicitBounds).toEqual([0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]);
    expect(created.bucketCounts!.map(Number).reduce((sum, count) => sum + count, 0)).toBe(1);
    expect(metricOf(latest, "svc_job_queue_depth")?.gauge?.dataPoints.length).toBe(Object.keys(JOB_CATALOG).length * 3);
  });
});

describe("metrics off (the default)", () => {
  it("serves no /metrics on the public listener", async () => {
    const svc = await startTestService();
    try {
      const answer = await svc.call("/metrics");
      expect(answer.status).toBe(404);
      expect(answer.text).not.toContain("svc_http_request_duration_seconds");
    } finally {
      await svc.stop();
    }
  });
});
