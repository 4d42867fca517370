import type { CoreDeps } from "@svc/core";
import type { Logger } from "pino";
import { register, Registry } from "prom-client";
import { registerInstanceGauges } from "./instance-gauges.ts";
import { registerPoolGauges } from "./pool-gauges.ts";

/** Metrics as prom-client hands them out: plain data, which a worker thread can post. */
export type MetricsJson = Awaited<ReturnType<Registry["getMetricsAsJSON"]>>;

export interface ThreadMetrics {
  /** Everything of the thread, collected now. */
  collect(): Promise<MetricsJson>;
  /** The service stops: the instance's figures are no longer read (the rest still is, for a last export). */
  stop(): void;
}

/**
 * The metrics of one thread's service: what its code recorded (requests, jobs, webhook
 * attempts: prom-client's registry of the thread) and its database pool (label `role`). With
 * `instanceWide`, also the instance's figures read from the database (queue depths, ETL
 * backlog), which one thread of each process reports: the one serving HTTP.
 */
export function createThreadMetrics(
  deps: Pick<CoreDeps, "db" | "jobs" | "uploads">,
  options: { role: string; instanceWide: boolean; logger: Logger },
): ThreadMetrics {
  const pool = new Registry();
  registerPoolGauges(pool, deps.db, options.role);
  let instance: Registry | undefined;
  if (options.instanceWide) {
    instance = new Registry();
    registerInstanceGauges(instance, deps, options.logger);
  }
  return {
    async collect() {
      const registries = instance ? [register, pool, instance] : [register, pool];
      return (await Promise.all(registries.map((registry) => registry.getMetricsAsJSON()))).flat();
    },
    stop() {
      instance = undefined;
    },
  };
}
