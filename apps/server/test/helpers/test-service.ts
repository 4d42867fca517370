import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createTenant as createTenantService, type CreatedTenant, type DeliverySchedule, type ProviderCatalog, type SyncSettings, type UploadSettings } from "@svc/core";
import { createDatabase, type Database } from "@svc/db";
import { appendRunLog, createTestDatabase, recordSecrets, recordSecretsIn, recordSecretsOfEnv } from "@svc/testing";
import { EnvSchema, startService } from "../../src/index.ts";
import { providerEnvironment } from "../../src/env.ts";
import { createLogger } from "../../src/logger.ts";
import { ContractChecker } from "./contract.ts";

export interface CallOptions {
  method?: string;
  key?: string | undefined;
  body?: unknown;
  /** Sent as is, instead of JSON of `body`. */
  rawBody?: string;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface TestService {
  url: string;
  databaseUrl: string;
  /** SVC_DATA_DIR of this service: a fresh temporary folder unless the test gave one. */
  dataDir: string;
  db: Database;
  /** Every log line the service wrote, as JSON text. */
  logs: string[];
  createTenant(name?: string): Promise<CreatedTenant>;
  /** A real HTTP call; every answer of a documented route is checked against /openapi.yaml. */
  call(path: string, options?: CallOptions): Promise<CallResult>;
  stop(): Promise<void>;
}

/** The real service (HTTP + workers) on a fresh database copied from the migrated template. */
export async function startTestService(
  env: Record<string, string> = {},
  options: {
    databaseUrl?: string;
    noHttp?: boolean;
    webhookSchedule?: DeliverySchedule;
    syncSettings?: SyncSettings;
    uploadSettings?: UploadSettings;
    providers?: ProviderCatalog;
  } = {},
): Promise<TestService> {
  const databaseUrl = options.databaseUrl ?? (await createTestDatabase());
  const dataDir = env.SVC_DATA_DIR ?? mkdtempSync(path.join(tmpdir(), "svc-test-data-"));
  const logs: string[] = [];
  // Every line also goes to the run's log folder, scanned for the recorded secrets when the run ends.
  recordSecretsOfEnv(env);
  const logger = createLogger("info", {
    write: (line: string) => {
      logs.push(line);
      appendRunLog(line);
    },
  });
  const service = await startService(
    // A stop waits at most 10 s for jobs still running (a webhook receiver that never answers).
    EnvSchema.parse({ PORT: "0", SVC_HOST: "127.0.0.1", DATABASE_URL: databaseUrl, SVC_DATA_DIR: dataDir, SVC_SHUTDOWN_TIMEOUT_SECONDS: "10", ...env }),
    logger,
    {
      webhookSchedule: options.webhookSchedule,
      providerEnv: providerEnvironment(env),
      syncSettings: options.syncSettings,
      uploadSettings: options.uploadSettings,
      providers: options.providers,
    },
  );
  const url = service.url ?? "";
  const db = createDatabase(databaseUrl, { max: 2 });
  const contract = options.noHttp ? undefined : await ContractChecker.load(`${url}/openapi.yaml`);

  let tenantCount = 0;
  return {
    url,
    databaseUrl,
    dataDir,
    db,
    logs,
    async createTenant(name) {
      const tenant = await createTenantService(db, name ?? `tenant-${++tenantCount}`);
      recordSecrets(tenant.api_key);
      return tenant;
    },
    async call(path, options = {}) {
      const method = options.method ?? (options.body === undefined && options.rawBody === undefined ? "GET" : "POST");
      const headers: Record<string, string> = { ...options.headers };
      if (options.key) headers.authorization = `Bearer ${options.key}`;
      for (const [name, value] of Object.entries(headers)) if (name.toLowerCase() === "authorization") recordSecrets(value.replace(/^Bearer /i, ""));
      recordSecretsIn(options.body);
      let body: string | undefined = options.rawBody;
      if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        headers["content-type"] ??= "application/json";
      }
      const response = await fetch(`${url}${path}`, { method, headers, body });
      const text = await response.text();
      let parsed: unknown = undefined;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      recordSecretsIn(parsed);
      const result = { status: response.status, headers: response.headers, body: parsed, text };
      contract?.check(method, path, result);
      return result;
    },
    async stop() {
      await db.$disconnect();
      await service.stop();
      if (env.SVC_DATA_DIR === undefined) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
