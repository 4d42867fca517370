// The delivery worker's side of webhook deliveries: claim one, record an attempt and its
// consequences for the delivery and its endpoint.
import type { DbClient } from "../platform/index.ts";

/** A claimed delivery with what its attempt needs from the endpoint. */
export interface ClaimedDelivery {
  id: bigint;
  eventId: string;
  body: string;
  endpointId: string;
  url: string;
  endpointStatus: "active" | "disabled";
  secretSealed: string;
}

/**
 * Marks the delivery running and returns it with its endpoint; null when it is gone, done or
 * parked (nothing to do). A running delivery is claimed again: its last worker died.
 */
export async function claimWebhookDelivery(db: DbClient, deliveryId: bigint): Promise<ClaimedDelivery | null> {
  const rows = await db.$queryRaw<ClaimedDelivery[]>`
    UPDATE webhook_deliveries d SET status = 'running', updated_at = now()
    FROM webhook_endpoints e
    WHERE d.id = ${deliveryId} AND d.status IN ('pending', 'running') AND e.id = d.endpoint_id
    RETURNING d.id, d.event_id AS "eventId", d.body, e.id AS "endpointId", e.url,
              e.status::text AS "endpointStatus", e.secret_sealed AS "secretSealed"`;
  return rows[0] ?? null;
}

/** Parks a delivery without an attempt (its endpoint is disabled). */
export async function parkWebhookDelivery(db: DbClient, deliveryId: bigint): Promise<void> {
  await db.$executeRaw`
    UPDATE webhook_deliveries SET status = 'parked', next_attempt_at = NULL, updated_at = now()
    WHERE id = ${deliveryId} AND status IN ('pending', 'running')`;
}

/**
 * Locks the delivery until the transaction ends and returns its attempt counters; null when
 * it was deleted meanwhile (its user or endpoint was deleted).
 */
export async function lockDeliveryCounters(
  db: DbClient,
  deliveryId: bigint,
): Promise<{ attempts: number; attemptsMade: number } | null> {
  const rows = await db.$queryRaw<Array<{ attempts: number; attemptsMade: number }>>`
    SELECT attempts, attempts_made AS "attemptsMade" FROM webhook_deliveries WHERE id = ${deliveryId} FOR UPDATE`;
  return rows[0] ?? null;
}

export interface AttemptRecord {
  deliveryId: bigint;
  attempt: number;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseBodyExcerpt: string | null;
}

/** Adds an attempt to the history and drops what falls out of the last `kept`. */
export async function insertAttemptKeepingLast(db: DbClient, record: AttemptRecord, kept: number): Promise<void> {
  await db.webhookAttempt.create({ data: record, select: { id: true } });
  await db.webhookAttempt.deleteMany({ where: { deliveryId: record.deliveryId, attempt: { lte: record.attempt - kept } } });
}

/** The delivery after a 2xx: done. */
export async function markDeliveryDone(
  db: DbClient,
  deliveryId: bigint,
  counters: { attempts: number; attemptsMade: number; statusCode: number | null },
): Promise<void> {
  await db.$executeRaw`
    UPDATE webhook_deliveries
    SET status = 'done', attempts = ${counters.attempts}, attempts_made = ${counters.attemptsMade},
        last_status_code = ${counters.statusCode}, last_error = NULL, next_attempt_at = NULL,
        delivered_at = now(), updated_at = now()
    WHERE id = ${deliveryId}`;
}

/** The delivery after a failed attempt: pending again until `nextAttemptAt`, or parked when it is null. */
export async function markDeliveryFailed(
  db: DbClient,
  deliveryId: bigint,
  failure: { attempts: number; attemptsMade: number; statusCode: number | null; error: string; nextAttemptAt: Date | null },
): Promise<void> {
  const status = failure.nextAttemptAt === null ? "parked" : "pending";
  await db.$executeRaw`
    UPDATE webhook_deliveries
    SET status = ${status}::webhook_delivery_status, attempts = ${failure.attempts}, attempts_made = ${failure.attemptsMade},
        last_status_code = ${failure.statusCode}, last_error = ${failure.error},
        next_attempt_at = ${failure.nextAttemptAt}, updated_at = now()
    WHERE id = ${deliveryId}`;
}

/**
 * The endpoint accepted a delivery: last_success_at now, failing_since cleared. Skipped when
 * another success wrote it less than a second ago, so that busy endpoints are not one hot row.
 */
export async function recordEndpointSuccess(db: DbClient, endpointId: string): Promise<void> {
  await db.$executeRaw`
    UPDATE webhook_endpoints SET last_success_at = now(), failing_since = NULL, updated_at = now()
    WHERE id = ${endpointId}::uuid
      AND (failing_since IS NOT NULL OR last_success_at IS NULL OR last_success_at < now() - interval '1 second')`;
}

/** The endpoint failed an attempt started at `startedAt`: the start of a run of failures unless one runs. */
export async function recordEndpointFailure(db: DbClient, endpointId: string, startedAt: Date): Promise<void> {
  await db.$executeRaw`
    UPDATE webhook_endpoints SET failing_since = ${startedAt}, updated_at = now()
    WHERE id = ${endpointId}::uuid AND failing_since IS NULL`;
}

/**
 * Disables the endpoint when it accepted nothing (no success, or none since its creation) for
 * `silentMs`. True when it was disabled now.
 */
export async function disableSilentEndpoint(db: DbClient, endpointId: string, silentMs: number, reason: string): Promise<boolean> {
  const disabled = await db.$executeRaw`
    UPDATE webhook_endpoints SET status = 'disabled', disabled_reason = ${reason}, updated_at = now()
    WHERE id = ${endpointId}::uuid AND status = 'active'
      AND coalesce(last_success_at, created_at) <= now() - ${silentMs}::float8 * interval '1 millisecond'`;
  return disabled > 0;
}
