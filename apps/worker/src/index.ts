export { startWorkers } from "./start-workers.ts";
export type { WorkerDeps } from "./worker-deps.ts";
