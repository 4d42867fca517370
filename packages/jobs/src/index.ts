export { JOB_CATALOG, type JobName, type JobPayload } from "./catalog.ts";
export { JobQueue, type JobContext } from "./queue.ts";
