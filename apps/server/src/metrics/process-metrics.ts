import { AggregatorRegistry, collectDefaultMetrics, Registry } from "prom-client";
import type { MetricsJson } from "./thread-metrics.ts";

/**
 * The metrics of the whole process, for GET /metrics and OTLP alike: each thread's service
 * metrics (the API's, and in SVC_ROLE=all the etl thread's), summed where a series is in both,
 * and prom-client's default metrics of the process (CPU, memory, file descriptors; heap, event
 * loop and garbage collection of the main thread).
 */
export class ProcessMetrics {
  private readonly process = new Registry();
  private readonly threads: Array<() => Promise<MetricsJson>> = [];

  constructor() {
    collectDefaultMetrics({ register: this.process });
  }

  addThread(collect: () => Promise<MetricsJson>): void {
    this.threads.push(collect);
  }

  /** Everything, collected now. */
  async collect(): Promise<Registry> {
    const threads = await Promise.all(this.threads.map((collect) => collect()));
    return Registry.merge([AggregatorRegistry.aggregate(threads), this.process]);
  }
}
