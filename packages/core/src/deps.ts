import type { Database } from "@svc/db";
import type { JobQueue } from "@svc/jobs";
import type { RawStore, Sealer } from "./platform/index.ts";
import type { ProviderCatalog, ProviderConfig, SyncSettings } from "./connections/index.ts";
import type { RateLimits } from "./identity/index.ts";
import type { UploadSettings } from "./ingest/index.ts";
import type { WebhookSettings } from "./webhooks/index.ts";
import type { FhirExportSettings } from "./fhir/index.ts";

/** Addresses of the instance as the outside world sees it. */
export interface InstanceSettings {
  /** SVC_PUBLIC_URL without a trailing slash, or the address the server listens on. */
  publicUrl(): string;
  /** `{fhir_code_system_base}`: SVC_FHIR_CODE_SYSTEM_BASE, default `{public_url}/fhir/CodeSystem`. */
  fhirCodeSystemBase(): string;
}

/**
 * What the core services need from the process: the database, the job queue, the raw
 * store, the sealer of secrets at rest, the webhook settings, the provider registry
 * and the provider configuration.
 */
export interface CoreDeps {
  db: Database;
  jobs: JobQueue;
  rawStore: RawStore;
  sealer: Sealer;
  webhooks: WebhookSettings;
  /** The providers this build knows (@svc/providers' registry). */
  providers: ProviderCatalog;
  /** Provider keys and switches of the instance and its tenants (cached), and the provider settings. */
  providerConfig: ProviderConfig;
  /** Retry, refresh, quota and chunking rules of sync runs (DEFAULT_SYNC_SETTINGS; tests shorten them). */
  sync: SyncSettings;
  /** Heartbeat, lapse and sweep timings of uploads still receiving bytes (DEFAULT_UPLOAD_SETTINGS; tests shorten them). */
  uploads: UploadSettings;
  instance: InstanceSettings;
  /** API calls per caller and window (SVC_RATE_LIMIT_*), counted where the caller is authenticated. */
  rateLimits: RateLimits;
  /** FHIR Bulk Data exports: how long their files stay (SVC_FHIR_EXPORT_RETENTION_HOURS). */
  fhirExports: FhirExportSettings;
}
