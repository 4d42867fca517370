import type { CoreDeps } from "../deps.ts";
import { deleteFinishedDeliveriesBefore, deleteOutboxEventsBefore } from "./retention-repository.ts";

/** Rows deleted per statement, so that no delete holds locks for long. */
const BATCH = 5000;

/**
 * The `webhook-cleanup` job: deletes deliveries that finished (done or parked) longer than
 * keepFinishedMs ago, with their attempts, and outbox events older than that (a delivery
 * carries its own body; nothing reads old events). Pending and running deliveries stay
 * however old they are.
 */
export async function cleanUpWebhookDeliveries(
  { db, webhooks }: Pick<CoreDeps, "db" | "webhooks">,
  now: Date = new Date(),
): Promise<{ deliveries: number; events: number }> {
  const before = new Date(now.getTime() - webhooks.schedule.keepFinishedMs);
  const deliveries = await deleteInBatches((batch) => deleteFinishedDeliveriesBefore(db, before, batch));
  const events = await deleteInBatches((batch) => deleteOutboxEventsBefore(db, before, batch));
  return { deliveries, events };
}

async function deleteInBatches(remove: (batch: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await remove(BATCH);
    total += deleted;
    if (deleted < BATCH) return total;
  }
}
