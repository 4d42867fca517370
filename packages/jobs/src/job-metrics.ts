import { Histogram } from "prom-client";

/** Every job this process ran, by queue and outcome; its `_count` is the number of jobs. */
const jobDuration = new Histogram({
  name: "svc_job_duration_seconds",
  help: "Jobs this process ran, by queue and outcome (completed, or failed: the handler threw and pg-boss retries or fails it), and how long each took.",
  labelNames: ["queue", "outcome"] as const,
  buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 1800],
});

/** Records one job that ran from `startedAt` (performance.now()) until now. */
export function recordJob(queue: string, outcome: "completed" | "failed", startedAt: number): void {
  jobDuration.observe({ queue, outcome }, (performance.now() - startedAt) / 1000);
}
