import { once } from "node:events";
import { parentPort, Worker, workerData } from "node:worker_threads";
import type { Logger } from "pino";
import { providerEnvironment, type Env } from "./env.ts";
import { startService } from "./start-service.ts";

export interface EtlThread {
  /** As the service's stop: running jobs get SVC_SHUTDOWN_TIMEOUT_SECONDS, then the thread ends. Also while it starts. */
  stop(): Promise<void>;
}

const ETL_YOUNG_GENERATION_MB = 48;

/** What the process tells its etl thread at the start. */
interface EtlThreadData {
  /** The instance's address as the API sees it (SVC_PUBLIC_URL, or where it listens). */
  publicUrl: string;
}

/**
 * The etl role of SVC_ROLE=all, in a worker thread: an ETL parses and writes in long stretches
 * of CPU work, which on the API's event loop would hold up every request meanwhile. The thread
 * runs `entry`, the process's main module, which calls runEtlThread there; it has its own
 * database pool, queue and event loop, on the same PostgreSQL (an embedded one is stopped by
 * the last of the two to stop). `onCrash` is called when the thread ends without being asked
 * to, a failed start included.
 */
export function startEtlThread(entry: URL, data: EtlThreadData, onCrash: (error: Error) => void): EtlThread {
  // A young generation of 48 MB (semi-spaces of 16 MB) instead of V8's default, which on a
  // machine with a large heap limit grows to 192 MB during the start and stays resident
  // (docs/deployment.md, "Memory").
  const thread = new Worker(entry, { workerData: data, resourceLimits: { maxYoungGenerationSizeMb: ETL_YOUNG_GENERATION_MB } });
  let stopping = false;
  let crash: Error | undefined;
  thread.on("error", (error) => {
    crash = error;
  });
  const exited = once(thread, "exit");
  void exited.then(([code]) => {
    if (!stopping) onCrash(crash ?? new Error(`the etl thread ended with code ${code}`));
  });
  return {
    async stop() {
      stopping = true;
      // Kept until the thread listens, if it is still starting.
      thread.postMessage("stop");
      await exited;
    },
  };
}

/** In the thread: the etl role without HTTP (the process serves the probes), until told to stop. */
export async function runEtlThread(env: Env, logger: Logger, shutdownTracing: () => Promise<void>): Promise<void> {
  const { publicUrl } = workerData as EtlThreadData;
  // The process migrated and bootstrapped already; links and provider addresses are the API's.
  const etl: Env = { ...env, SVC_ROLE: "etl", SVC_MIGRATE_ON_START: false, SVC_BOOTSTRAP_TENANT: undefined, SVC_PUBLIC_URL: publicUrl };
  const service = await startService(etl, logger.child({ thread: "etl" }), { providerEnv: providerEnvironment(), serveHttp: false });
  await once(parentPort!, "message");
  await service.stop();
  await shutdownTracing();
  process.exit(0); // in a worker thread, ends the thread only
}
