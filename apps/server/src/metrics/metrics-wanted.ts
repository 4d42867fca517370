import type { Env } from "../env.ts";
import { otlpMetricsWanted } from "../tracing.ts";

/**
 * Metrics are kept when they are served (SVC_METRICS_PORT) or exported over OTLP. Otherwise
 * nothing of them loads: prom-client alone adds about 20 MB to each thread at rest.
 */
export function metricsWanted(env: Env): boolean {
  return env.SVC_METRICS_PORT !== undefined || otlpMetricsWanted(env);
}
