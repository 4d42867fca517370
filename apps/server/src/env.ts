import { z } from "zod";

const boolean = z.enum(["true", "false", "1", "0"]).transform((value) => value === "true" || value === "1");

/** Every setting of the server process; the only place that reads process.env. */
export const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  SVC_HOST: z.string().default("0.0.0.0"),
  DATABASE_URL: z.url().optional(),
  SVC_DATA_DIR: z.string().default("./.data"),
  SVC_ROLE: z.enum(["all", "api", "etl"]).default("all"),
  SVC_MIGRATE_ON_START: boolean.default(true),
  SVC_DATABASE_PREPARED_STATEMENTS: boolean.default(true),
  SVC_BOOTSTRAP_TENANT: z.string().min(1).max(200).optional(),
  SVC_PUBLIC_URL: z.url().optional(),
  /** `{fhir_code_system_base}` of the FHIR search's own code systems; default `{public_url}/fhir/CodeSystem`. Keep it stable once clients store codes. */
  SVC_FHIR_CODE_SYSTEM_BASE: z.url().optional(),
  SVC_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** On SIGTERM/SIGINT: how long requests and jobs in flight may take to finish before they are cut off. */
  SVC_SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(25),
  /** On SIGTERM/SIGINT: how long to keep serving while not ready, before connections close (load balancers' probe interval). */
  SVC_SHUTDOWN_DELAY_SECONDS: z.coerce.number().int().min(0).max(300).default(0),
  // HTTP connection timeouts (docs/deployment.md "Load balancers and timeouts").
  /** How long an idle keep-alive connection stays open: above the load balancer's idle timeout (60 s on most). */
  SVC_HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(65),
  /** How long a client may take to send a request's headers; greater than the keep-alive timeout. */
  SVC_HTTP_HEADERS_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(66),
  /** How long a whole request, body included, may take to arrive (an upload of 4 GiB at 10 Mbit/s fits an hour); 0: no limit. */
  SVC_HTTP_REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(0).max(86400).default(3600),
  // Where raw uploads are kept: files under SVC_DATA_DIR/raw (default), or an S3-compatible
  // bucket (AWS S3, MinIO, Cloudflare R2, …) addressed path-style: <endpoint>/<bucket>/<prefix><key>.
  SVC_RAW_STORE: z.enum(["file", "s3"]).default("file"),
  /** e.g. https://s3.eu-central-1.amazonaws.com, http://minio:9000, https://<account>.r2.cloudflarestorage.com */
  SVC_S3_ENDPOINT: z.url().optional(),
  SVC_S3_BUCKET: z.string().min(1).optional(),
  /** SigV4 region: the bucket's region on AWS, `auto` on R2, `us-east-1` for MinIO unless set otherwise. */
  SVC_S3_REGION: z.string().min(1).default("us-east-1"),
  SVC_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  SVC_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Prepended to every key, e.g. `svc/raw`; none by default. */
  SVC_S3_PREFIX: z.string().optional(),
  /** 32 bytes as base64 or 64 hex characters (`openssl rand -base64 32`); without it a key is generated once in SVC_DATA_DIR/encryption.key. */
  SVC_ENCRYPTION_KEY: z.string().optional(),
  /** Comma-separated earlier keys that still open stored secrets, same format. */
  SVC_PREVIOUS_ENCRYPTION_KEYS: z.string().optional(),
  /** Local development only: webhooks may go to private addresses, and over http to loopback. */
  SVC_WEBHOOK_ALLOW_PRIVATE: boolean.default(false),
  // API rate limits (docs/reference/limits.md, docs/deployment.md "Limits"): calls per window, 0 turns a limit off.
  /** Calls of one tenant's API keys together per window; also the limit of each instance admin key. */
  SVC_RATE_LIMIT_TENANT: z.coerce.number().int().min(0).default(6000),
  /** Calls of one user's tokens together per window. */
  SVC_RATE_LIMIT_USER: z.coerce.number().int().min(0).default(1200),
  /** Length of the fixed window in seconds, counted from a caller's first call; 0 turns every limit off. */
  SVC_RATE_LIMIT_WINDOW_SECONDS: z.coerce.number().int().min(0).max(86400).default(60),
  /** How long the files of a FHIR Bulk Data export (and the answer of a failed one) are kept, in hours. */
  SVC_FHIR_EXPORT_RETENTION_HOURS: z.coerce.number().int().min(1).max(24 * 365).default(24),
  // Metrics (docs/deployment.md "Metrics"): Prometheus text at GET /metrics on a listener of its own.
  /** Port of the metrics listener (0: any free one); unset: none, and no request is timed. */
  SVC_METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /** Address the metrics listener binds to: loopback unless the scraper is elsewhere. */
  SVC_METRICS_HOST: z.string().default("127.0.0.1"),
  // OpenTelemetry: these decide whether tracing is on (tracing.ts); the SDK reads every OTEL_* itself.
  OTEL_SDK_DISABLED: z.string().optional(),
  OTEL_TRACES_EXPORTER: z.string().optional(),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().optional(),
  OTEL_SERVICE_NAME: z.string().optional(),
  OTEL_RESOURCE_ATTRIBUTES: z.string().optional(),
  // With tracing on, these decide whether metrics go over OTLP too, and how (otlp-metrics.ts).
  OTEL_METRICS_EXPORTER: z.string().optional(),
  OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: z.string().optional(),
  OTEL_EXPORTER_OTLP_PROTOCOL: z.string().optional(),
  OTEL_EXPORTER_OTLP_METRICS_PROTOCOL: z.string().optional(),
  /** Milliseconds between two OTLP exports of the metrics. */
  OTEL_METRIC_EXPORT_INTERVAL: z.coerce.number().int().min(100).default(60_000),
}).superRefine((env, context) => {
  // An idle keep-alive connection must close before a headers timeout could cut it (as load balancer guides ask).
  if (env.SVC_HTTP_HEADERS_TIMEOUT_SECONDS <= env.SVC_HTTP_KEEP_ALIVE_TIMEOUT_SECONDS) {
    context.addIssue({ code: "custom", path: ["SVC_HTTP_HEADERS_TIMEOUT_SECONDS"], message: "must be greater than SVC_HTTP_KEEP_ALIVE_TIMEOUT_SECONDS" });
  }
  // Node refuses a request timeout shorter than the headers timeout.
  if (env.SVC_HTTP_REQUEST_TIMEOUT_SECONDS !== 0 && env.SVC_HTTP_REQUEST_TIMEOUT_SECONDS < env.SVC_HTTP_HEADERS_TIMEOUT_SECONDS) {
    context.addIssue({ code: "custom", path: ["SVC_HTTP_REQUEST_TIMEOUT_SECONDS"], message: "must be 0 or at least SVC_HTTP_HEADERS_TIMEOUT_SECONDS" });
  }
  if (env.SVC_RAW_STORE !== "s3") return;
  for (const name of ["SVC_S3_ENDPOINT", "SVC_S3_BUCKET", "SVC_S3_ACCESS_KEY_ID", "SVC_S3_SECRET_ACCESS_KEY"] as const) {
    if (!env[name]) context.addIssue({ code: "custom", path: [name], message: "required when SVC_RAW_STORE=s3" });
  }
});

export type Env = z.infer<typeof EnvSchema>;

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = EnvSchema.safeParse(Object.fromEntries(Object.entries(source).filter(([, v]) => v !== "")));
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    throw new Error(`Invalid configuration:\n  ${problems.join("\n  ")}`);
  }
  return parsed.data;
}

/**
 * The SVC_* variables the schema does not name: provider keys (`SVC_<SLUG>_<KEY>`, e.g.
 * SVC_OURA_CLIENT_ID) and provider URL overrides (`SVC_<SLUG>_<NAME>_URL`), read by the
 * provider configuration. Documented per provider in docs/providers.md.
 */
export function providerEnvironment(source: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const known = new Set(Object.keys(EnvSchema.shape));
  return Object.fromEntries(
    Object.entries(source).filter((entry): entry is [string, string] => entry[0].startsWith("SVC_") && !known.has(entry[0]) && !!entry[1]),
  );
}
