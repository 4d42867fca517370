import type { DbClient } from "../platform/index.ts";

/**
 * Deletes up to `batch` done or parked deliveries last changed before `before` (their
 * attempts go by cascade); returns how many.
 */
export function deleteFinishedDeliveriesBefore(db: DbClient, before: Date, batch: number): Promise<number> {
  return db.$executeRaw`
    DELETE FROM webhook_deliveries WHERE id IN (
      SELECT id FROM webhook_deliveries
      WHERE status IN ('done', 'parked') AND updated_at < ${before}
      LIMIT ${batch})`;
}

/** Deletes up to `batch` outbox events written before `before`; returns how many. */
export function deleteOutboxEventsBefore(db: DbClient, before: Date, batch: number): Promise<number> {
  return db.$executeRaw`
    DELETE FROM outbox_events WHERE id IN (
      SELECT id FROM outbox_events WHERE created_at < ${before} LIMIT ${batch})`;
}
