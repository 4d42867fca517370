export { startWorkers } from "./start-workers.ts";
export type { WorkerDeps } from "./worker-deps.ts";
export { keepWebhookMetrics } from "./handlers/webhook-delivery-metrics.ts";
