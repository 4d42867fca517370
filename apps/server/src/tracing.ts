import type { MetricReader } from "@opentelemetry/sdk-metrics";
import type { Env } from "./env.ts";

export interface Tracing {
  on: boolean;
  /** Exports the spans still buffered and stops; resolves at once when tracing is off. */
  shutdown(): Promise<void>;
}

/**
 * Tracing is on when the OTEL_* variables name somewhere to send spans (an OTLP endpoint or
 * a traces exporter) and OTEL_SDK_DISABLED is not true. The OpenTelemetry SDK then reads the
 * rest of OTEL_* itself (protocol, headers, sampler, batch timings, resource). Off, the SDK is
 * not even loaded: the API stays a no-op, so a `traceparent` header is ignored.
 */
export function tracingWanted(env: Env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  const exporters = env.OTEL_TRACES_EXPORTER?.split(",").map((name) => name.trim()).filter((name) => name !== "") ?? [];
  if (exporters.length > 0) return exporters[0] !== "none";
  return env.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== undefined;
}

/**
 * With tracing on, metrics go over OTLP too when an OTLP endpoint is named for them
 * (OTEL_EXPORTER_OTLP_ENDPOINT or OTEL_EXPORTER_OTLP_METRICS_ENDPOINT) and OTEL_METRICS_EXPORTER
 * is unset or lists `otlp` (`none` turns them off).
 */
export function otlpMetricsWanted(env: Env): boolean {
  if (!tracingWanted(env)) return false;
  const exporters = env.OTEL_METRICS_EXPORTER?.split(",").map((name) => name.trim()).filter((name) => name !== "") ?? [];
  if (exporters.length > 0 && !exporters.includes("otlp")) return false;
  return env.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined || env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT !== undefined;
}

/**
 * Starts the OpenTelemetry SDK for traces (no logs, no auto-instrumentation), and for metrics
 * only through `metricReader` (otlp-metrics.ts), when given.
 */
export async function startTracing(env: Env, options: { metricReader?: MetricReader | undefined } = {}): Promise<Tracing> {
  if (!tracingWanted(env)) return { on: false, shutdown: async () => {} };
  const { NodeSDK } = await import("@opentelemetry/sdk-node");
  const named = env.OTEL_SERVICE_NAME !== undefined || /(^|,)\s*service\.name\s*=/.test(env.OTEL_RESOURCE_ATTRIBUTES ?? "");
  const sdk = new NodeSDK({
    ...(!named && { serviceName: "svc" }),
    metricReaders: options.metricReader ? [options.metricReader] : [],
    logRecordProcessors: [],
  });
  sdk.start();
  return { on: true, shutdown: () => sdk.shutdown() };
}
