import type { Histogram } from "prom-client";

/** Every job this process ran, by queue and outcome; its `_count` is the number of jobs. Kept once keepJobMetrics ran. */
let jobDuration: Histogram<"queue" | "outcome"> | undefined;

/** Keeps job metrics from now on; prom-client loads only in a process that keeps metrics (its memory at rest). */
export async function keepJobMetrics(): Promise<void> {
  const { Histogram } = await import("./prom-client.ts");
  jobDuration ??= new Histogram({
    name: "svc_job_duration_seconds",
    help: "Jobs this process ran, by queue and outcome (completed, or failed: the handler threw and pg-boss retries or fails it), and how long each took.",
    labelNames: ["queue", "outcome"] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 1800],
  });
}

/** Records one job that ran from `startedAt` (performance.now()) until now, when metrics are kept. */
export function recordJob(queue: string, outcome: "completed" | "failed", startedAt: number): void {
  jobDuration?.observe({ queue, outcome }, (performance.now() - startedAt) / 1000);
}
