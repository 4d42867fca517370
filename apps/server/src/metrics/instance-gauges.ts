import { getEtlBacklog, type CoreDeps } from "@svc/core";
import type { Logger } from "pino";
import { Gauge, type Registry } from "prom-client";

/** What a scrape reads from the database is kept this long, so scrapes cost two queries at most. */
const READ_CACHE_MS = 10_000;

/**
 * Figures of the whole instance, read from the database when collected (at most every
 * READ_CACHE_MS): the jobs of each queue and the ETL backlog. A read that fails leaves its
 * series out of that scrape and is logged.
 */
export function registerInstanceGauges(registry: Registry, deps: Pick<CoreDeps, "db" | "jobs" | "uploads">, logger: Logger): void {
  const depths = readEvery(READ_CACHE_MS, () => deps.jobs.depths());
  new Gauge({
    name: "svc_job_queue_depth",
    help: "Jobs of each queue of the instance: ready to run now, deferred (retries and attempts due later) and active. pg-boss refreshes these counts every minute.",
    labelNames: ["queue", "state"],
    registers: [registry],
    async collect() {
      this.reset();
      const queues = await readOrLog(depths, logger, "queue depths");
      for (const { queue, ready, deferred, active } of queues ?? []) {
        this.set({ queue, state: "ready" }, ready);
        this.set({ queue, state: "deferred" }, deferred);
        this.set({ queue, state: "active" }, active);
      }
    },
  });

  const backlog = readEvery(READ_CACHE_MS, () => getEtlBacklog(deps));
  new Gauge({
    name: "svc_etl_raw_objects",
    help: "Raw objects of the instance by state, as GET /v1/pipeline counts them: pending (waiting for the ETL), running (uploads receiving bytes), parked (the ETL gave up on them).",
    labelNames: ["state"],
    registers: [registry],
    async collect() {
      this.reset();
      const counts = await readOrLog(backlog, logger, "ETL backlog");
      if (counts === undefined) return;
      for (const state of ["pending", "running", "parked"] as const) this.set({ state }, counts[state]);
    },
  });
}

/** `read`, remembered for `ms`; callers meanwhile share one read. A failed read is not remembered. */
function readEvery<T>(ms: number, read: () => Promise<T>): () => Promise<T> {
  let last: { value: Promise<T>; at: number } | undefined;
  return () => {
    const now = Date.now();
    if (last === undefined || now - last.at >= ms) {
      const value = read();
      last = { value, at: now };
      value.catch(() => {
        if (last?.value === value) last = undefined;
      });
    }
    return last.value;
  };
}

/** The value, or undefined when it could not be read. */
async function readOrLog<T>(read: () => Promise<T>, logger: Logger, what: string): Promise<T | undefined> {
  try {
    return await read();
  } catch (error) {
    logger.warn({ err: error }, `metrics: the ${what} could not be read`);
    return undefined;
  }
}
