export { JOB_CATALOG, type JobName, type JobPayload } from "./catalog.ts";
export { JobQueue, type JobContext, type QueueDepth } from "./queue.ts";
export { keepJobMetrics } from "./job-metrics.ts";
