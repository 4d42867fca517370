import { once } from "node:events";
import { MessageChannel, type MessagePort, parentPort, Worker, workerData } from "node:worker_threads";
import type { Logger } from "pino";
import { providerEnvironment, type Env } from "./env.ts";
import type { MetricsJson } from "./metrics/thread-metrics.ts";
import { startService } from "./start-service.ts";

export interface EtlThread {
  /** As the service's stop: running jobs get SVC_SHUTDOWN_TIMEOUT_SECONDS, then the thread ends. Also while it starts. */
  stop(): Promise<void>;
  /**
   * The thread's metrics, asked for over a port of their own. A thread busy beyond
   * METRICS_WAIT_MS (a long stretch of parsing) or not started yet answers with what it
   * answered last.
   */
  metrics(): Promise<MetricsJson>;
}

const ETL_YOUNG_GENERATION_MB = 48;

const METRICS_WAIT_MS = 3_000;

/** What the process tells its etl thread at the start. */
interface EtlThreadData {
  /** The instance's address as the API sees it (SVC_PUBLIC_URL, or where it listens). */
  publicUrl: string;
  /** Where the thread answers requests for its metrics (a number) with `{ id, metrics }`. */
  metricsPort: MessagePort;
}

/**
 * The etl role of SVC_ROLE=all, in a worker thread: an ETL parses and writes in long stretches
 * of CPU work, which on the API's event loop would hold up every request meanwhile. The thread
 * runs `entry`, the process's main module, which calls runEtlThread there; it has its own
 * database pool, queue and event loop, on the same PostgreSQL (an embedded one is stopped by
 * the last of the two to stop). `onCrash` is called when the thread ends without being asked
 * to, a failed start included.
 */
export function startEtlThread(entry: URL, data: Omit<EtlThreadData, "metricsPort">, onCrash: (error: Error) => void): EtlThread {
  const metrics = new MessageChannel();
  // A young generation of 48 MB (semi-spaces of 16 MB) instead of V8's default, which on a
  // machine with a large heap limit grows to 192 MB during the start and stays resident
  // (docs/deployment.md, "Memory").
  const thread = new Worker(entry, {
    workerData: { ...data, metricsPort: metrics.port2 } satisfies EtlThreadData,
    transferList: [metrics.port2],
    resourceLimits: { maxYoungGenerationSizeMb: ETL_YOUNG_GENERATION_MB },
  });
  const askMetrics = metricsAsker(metrics.port1);
  let stopping = false;
  let crash: Error | undefined;
  thread.on("error", (error) => {
    crash = error;
  });
  const exited = once(thread, "exit");
  void exited.then(([code]) => {
    metrics.port1.close();
    if (!stopping) onCrash(crash ?? new Error(`the etl thread ended with code ${code}`));
  });
  return {
    async stop() {
      stopping = true;
      // Kept until the thread listens, if it is still starting.
      thread.postMessage("stop");
      await exited;
    },
    metrics: askMetrics,
  };
}

/** Asks over `port` for the thread's metrics; waits METRICS_WAIT_MS at most, then answers the last ones. */
function metricsAsker(port: MessagePort): () => Promise<MetricsJson> {
  let last: MetricsJson = [];
  let asked = 0;
  let closed = false;
  const waiting = new Map<number, () => void>();
  port.on("message", ({ id, metrics }: { id: number; metrics: MetricsJson }) => {
    last = metrics;
    waiting.get(id)?.();
  });
  port.on("close", () => {
    closed = true;
    for (const answer of waiting.values()) answer();
  });
  // The port alone does not keep the process running.
  port.unref();
  return () => {
    if (closed) return Promise.resolve(last);
    const id = ++asked;
    return new Promise((resolve) => {
      const answer = () => {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(last);
      };
      const timer = setTimeout(answer, METRICS_WAIT_MS);
      waiting.set(id, answer);
      port.postMessage(id);
    });
  };
}

/** In the thread: the etl role without HTTP (the process serves the probes), until told to stop. */
export async function runEtlThread(env: Env, logger: Logger, shutdownTracing: () => Promise<void>): Promise<void> {
  const { publicUrl, metricsPort } = workerData as EtlThreadData;
  // The process migrated and bootstrapped already; links and provider addresses are the API's.
  const etl: Env = { ...env, SVC_ROLE: "etl", SVC_MIGRATE_ON_START: false, SVC_BOOTSTRAP_TENANT: undefined, SVC_PUBLIC_URL: publicUrl };
  const service = await startService(etl, logger.child({ thread: "etl" }), { providerEnv: providerEnvironment(), serveHttp: false });
  metricsPort.on("message", (id: number) => {
    service.metrics().then(
      (metrics) => metricsPort.postMessage({ id, metrics }),
      (error: unknown) => logger.warn({ err: error }, "metrics: the etl thread's could not be collected"),
    );
  });
  metricsPort.unref();
  await once(parentPort!, "message");
  await service.stop();
  await shutdownTracing();
  process.exit(0); // in a worker thread, ends the thread only
}
