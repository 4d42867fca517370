import { attemptWebhookDelivery } from "@svc/core";
import type { WorkerDeps } from "../worker-deps.ts";
import { recordWebhookAttempt } from "./webhook-delivery-metrics.ts";
import { createSlots } from "./webhook-delivery-slots.ts";

/** Deliveries one etl process runs at once (claimed, posted, recorded), whatever its jobs' batches. */
const DELIVERIES_AT_ONCE = 8;

/**
 * One attempt of one webhook delivery. The retry schedule is the delivery's own (each failed
 * attempt queues the next one); pg-boss retries a job only when its worker died or the
 * database failed. Logs carry ids, status codes and errors, never a body, URL or secret.
 */
export async function registerWebhookDeliver(deps: WorkerDeps): Promise<void> {
  const { jobs, logger } = deps;
  const slot = createSlots(DELIVERIES_AT_ONCE);
  await jobs.work("webhook-deliver", async ({ delivery_id }) => {
    const outcome = await slot(() => attemptWebhookDelivery(deps, BigInt(delivery_id)));
    if (outcome.result === "nothing-to-do") return;
    if (outcome.result === "parked-endpoint-disabled") {
      logger.info({ delivery_id, endpoint_id: outcome.endpointId }, "webhook delivery parked: endpoint disabled");
      return;
    }
    recordWebhookAttempt(outcome);
    const fields = {
      delivery_id,
      endpoint_id: outcome.endpointId,
      attempt: outcome.attempt,
      status_code: outcome.statusCode,
      error: outcome.error,
      duration_ms: outcome.durationMs,
      next_attempt_at: outcome.nextAttemptAt?.toISOString(),
    };
    if (outcome.result === "done") logger.debug(fields, "webhook delivered");
    else if (outcome.result === "retry") logger.info(fields, "webhook attempt failed; retry scheduled");
    else logger.warn(fields, "webhook delivery parked: out of attempts");
    if (outcome.endpointDisabled) logger.warn({ endpoint_id: outcome.endpointId }, "webhook endpoint disabled: it accepted nothing for too long");
  });
}
