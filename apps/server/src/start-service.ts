import path from "node:path";
import {
  bootstrapTenant,
  createSealer,
  defaultFhirCodeSystemBase,
  ProviderConfig,
  RateLimits,
  DEFAULT_DELIVERY_SCHEDULE,
  DEFAULT_SYNC_SETTINGS,
  DEFAULT_UPLOAD_SETTINGS,
  loadEncryptionKeys,
  type CoreDeps,
  type DeliverySchedule,
  type ProviderCatalog,
  type SyncSettings,
  type UploadSettings,
} from "@svc/core";
import { applyMigrations, createDatabase, openEmbeddedPostgres } from "@svc/db";
import { JobQueue, keepJobMetrics } from "@svc/jobs";
import { PROVIDER_REGISTRY } from "@svc/providers/registry";
import type { Logger } from "pino";
import { closeHttpServer } from "./close-http-server.ts";
import { HandlersInFlight } from "./handlers-in-flight.ts";
import { createHttpServer, listen } from "./http-server.ts";
import { createProbeApp } from "./health/probe-app.ts";
import { Readiness } from "./health/readiness.ts";
import type { Env } from "./env.ts";
import { rawStoreFromEnv } from "./raw-store-from-env.ts";
import { releaseStartMemory } from "./release-start-memory.ts";
import { metricsWanted } from "./metrics/metrics-wanted.ts";
import type { MetricsJson, ThreadMetrics } from "./metrics/thread-metrics.ts";

export interface RunningService {
  /** http://127.0.0.1:<port>: the API, or with SVC_ROLE=etl only the probes /healthz and /readyz. */
  url: string | undefined;
  databaseUrl: string;
  /** This thread's metrics (thread-metrics.ts), collected now. */
  metrics(): Promise<MetricsJson>;
  /**
   * Graceful: readiness fails at once, no new connections, requests and jobs in flight get
   * SVC_SHUTDOWN_TIMEOUT_SECONDS to finish, then the queue, Prisma and PostgreSQL close.
   * `alongside`: what else stops meanwhile on the same database (the etl thread of
   * SVC_ROLE=all), awaited before the database closes and "svc stopped" is logged last.
   */
  stop(alongside?: Promise<unknown>): Promise<void>;
}

/**
 * Starts svc: the database (embedded PostgreSQL under SVC_DATA_DIR unless DATABASE_URL),
 * pending migrations, the bootstrap tenant, the job queue, and per SVC_ROLE the workers
 * and the HTTP API.
 */
export async function startService(
  env: Env,
  logger: Logger,
  options: {
    webhookSchedule?: DeliverySchedule;
    providerEnv?: Record<string, string>;
    /** Tests: shorter sync retry and quota timings. */
    syncSettings?: SyncSettings;
    /** Tests: shorter upload heartbeat, lapse and sweep timings. */
    uploadSettings?: UploadSettings;
    /** Tests: a provider catalog other than this build's registry (e.g. with a test connector). */
    providers?: ProviderCatalog;
    /** False: no HTTP listener, not even the probes (the etl thread of SVC_ROLE=all, whose process serves them). */
    serveHttp?: boolean;
  } = {},
): Promise<RunningService> {
  const postgres = env.DATABASE_URL
    ? { url: env.DATABASE_URL, stop: async () => {} }
    : await openEmbeddedPostgres(path.resolve(env.SVC_DATA_DIR, "postgres"), {
        log: (line) => logger.warn(line),
      });
  if ("started" in postgres) {
    const found = postgres.started ? "embedded PostgreSQL started" : "embedded PostgreSQL already running: using it";
    logger.info({ data_dir: path.resolve(env.SVC_DATA_DIR), new_database: postgres.created }, found);
  }

  if (env.SVC_MIGRATE_ON_START) {
    const applied = await applyMigrations(postgres.url);
    if (applied.length > 0) logger.info({ migrations: applied }, "migrations applied");
  }

  const db = createDatabase(postgres.url, { preparedStatements: env.SVC_DATABASE_PREPARED_STATEMENTS });
  const jobs = await JobQueue.start(postgres.url, (error) => logger.error({ err: error }, "job queue error"));
  const rawStore = rawStoreFromEnv(env);
  const encryptionKeys = await loadEncryptionKeys(env, path.resolve(env.SVC_DATA_DIR));
  const sealer = createSealer(encryptionKeys);
  logger.info({ key_id: sealer.keyId, key_source: encryptionKeys.source }, "encryption key loaded");
  const webhooks = { allowPrivate: env.SVC_WEBHOOK_ALLOW_PRIVATE, schedule: options.webhookSchedule ?? DEFAULT_DELIVERY_SCHEDULE };
  // Without SVC_PUBLIC_URL the instance's address is known once the server listens.
  let publicUrl = env.SVC_PUBLIC_URL?.replace(/\/+$/, "") ?? `http://127.0.0.1:${env.PORT}`;
  const providerSettings = { env: options.providerEnv ?? {}, publicUrl: () => publicUrl };
  const providers = options.providers ?? PROVIDER_REGISTRY;
  const providerConfig = new ProviderConfig(db, sealer, providers, providerSettings);
  const sync = options.syncSettings ?? DEFAULT_SYNC_SETTINGS;
  const uploads = options.uploadSettings ?? DEFAULT_UPLOAD_SETTINGS;
  const instance = {
    publicUrl: () => publicUrl,
    fhirCodeSystemBase: () => env.SVC_FHIR_CODE_SYSTEM_BASE?.replace(/\/+$/, "") ?? defaultFhirCodeSystemBase(publicUrl),
  };
  const rateLimits = new RateLimits(db, {
    tenant: env.SVC_RATE_LIMIT_TENANT,
    user: env.SVC_RATE_LIMIT_USER,
    windowSeconds: env.SVC_RATE_LIMIT_WINDOW_SECONDS,
  });
  const fhirExports = { retentionHours: env.SVC_FHIR_EXPORT_RETENTION_HOURS };
  const deps: CoreDeps = { db, jobs, rawStore, sealer, webhooks, providers, providerConfig, sync, uploads, instance, rateLimits, fhirExports };

  if (env.SVC_BOOTSTRAP_TENANT) {
    const created = await bootstrapTenant(db, env.SVC_BOOTSTRAP_TENANT);
    if (created) {
      // Logged once, at the first start only: the key is never stored in clear.
      logger.warn(
        { tenant_id: created.tenant_id, tenant: created.name },
        `Bootstrap tenant created. Its API key, shown only this once: ${created.api_key}`,
      );
    }
  }

  // Each role loads only its own code: the workers and the parsers they call, or the API.
  const keepsMetrics = metricsWanted(env);
  if (keepsMetrics) await keepRecordedMetrics(env.SVC_ROLE);
  if (env.SVC_ROLE !== "api") {
    const { startWorkers } = await import("@svc/worker");
    await startWorkers({ ...deps, logger });
  }

  // The etl thread of SVC_ROLE=all serves nothing over HTTP: no probes, no probe database client.
  const servesHttp = options.serveHttp !== false;
  const metrics: ThreadMetrics | undefined = keepsMetrics
    ? (await import("./metrics/thread-metrics.ts")).createThreadMetrics(deps, { role: env.SVC_ROLE, instanceWide: servesHttp, logger })
    : undefined;
  const http = servesHttp ? await serveHttp(env, postgres.url, deps, logger) : undefined;
  const address = http?.server.address();
  const url = address && typeof address === "object" ? `http://127.0.0.1:${address.port}` : undefined;
  if (url && !env.SVC_PUBLIC_URL) publicUrl = url;
  logger.info({ role: env.SVC_ROLE, url }, "svc started");
  releaseStartMemory();

  return {
    url,
    databaseUrl: postgres.url,
    metrics: () => metrics?.collect() ?? Promise.resolve([]),
    async stop(alongside) {
      http?.readiness.beginShutdown();
      metrics?.stop();
      const delaySeconds = env.SVC_SHUTDOWN_DELAY_SECONDS;
      if (delaySeconds > 0) {
        // Load balancers notice a failing readiness only at their next probe: keep serving until then.
        logger.info({ delay_seconds: delaySeconds }, "shutdown: not ready, still serving while load balancers catch up");
        await new Promise((resolve) => setTimeout(resolve, delaySeconds * 1000));
      }
      const timeoutSeconds = env.SVC_SHUTDOWN_TIMEOUT_SECONDS;
      logger.info({ timeout_seconds: timeoutSeconds }, "shutdown: not ready, no new connections, finishing requests and jobs");
      // Both at once: the queue stops fetching while requests finish (and may still queue jobs).
      const drainUntil = Date.now() + timeoutSeconds * 1000;
      const [requests, running] = await Promise.all([
        http ? closeHttpServer(http.server, timeoutSeconds * 1000).then(async ({ cut }) => ({ cut, running: await http.handlers.settled(drainUntil - Date.now()) })) : { cut: 0, running: 0 },
        jobs.drain(timeoutSeconds * 1000),
      ]);
      const cut = { connections_cut: requests.cut, handlers_still_running: requests.running, jobs_cut: running.cut };
      if (cut.connections_cut + cut.handlers_still_running + cut.jobs_cut > 0) logger.warn(cut, "shutdown: timeout reached, the rest was cut off (cut jobs are retried)");
      else logger.info("shutdown: requests and jobs finished");
      await jobs.stop();
      await alongside;
      await db.$disconnect();
      await http?.probeDb.$disconnect();
      await postgres.stop();
      logger.info("svc stopped");
    },
  };
}

/** Listens on PORT: the API, or for the etl role only the probes, which orchestrators still ask. */
async function serveHttp(env: Env, databaseUrl: string, deps: CoreDeps, logger: Logger) {
  const probeDb = createDatabase(databaseUrl, { max: 1 });
  const readiness = new Readiness(probeDb);
  const app =
    env.SVC_ROLE === "etl"
      ? createProbeApp(readiness)
      : (await import("./app.ts")).createApp({ deps, logger, readiness, publicUrl: env.SVC_PUBLIC_URL, httpMetrics: metricsWanted(env) });
  const server = createHttpServer(app, env);
  const handlers = new HandlersInFlight(server);
  await listen(server, env.PORT, env.SVC_HOST);
  return { server, handlers, readiness, probeDb };
}

/** What this thread records from now on (requests, jobs, webhook attempts); prom-client loads only here. */
async function keepRecordedMetrics(role: Env["SVC_ROLE"]): Promise<void> {
  const { keepHttpMetrics } = await import("./metrics/http-metrics.ts");
  await Promise.all([keepJobMetrics(), keepHttpMetrics(), role === "api" ? undefined : (await import("@svc/worker")).keepWebhookMetrics()]);
}
