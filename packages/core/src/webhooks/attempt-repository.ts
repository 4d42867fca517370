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
 * Marks the deliveries running and returns each with its endpoint, in the order of `ids`; null
 * for one that is gone, done or parked (nothing to do). A running delivery is claimed again:
 * its last worker died.
 */
export async function claimWebhookDeliveries(db: DbClient, ids: bigint[]): Promise<Array<ClaimedDelivery | null>> {
  const rows = await db.$queryRaw<ClaimedDelivery[]>`
    UPDATE webhook_deliveries d SET status = 'running', updated_at = now()
    FROM webhook_endpoints e
    WHERE d.id = ANY(${ids.map(String)}::bigint[]) AND d.status IN ('pending', 'running') AND e.id = d.endpoint_id
    RETURNING d.id, d.event_id AS "eventId", d.body, e.id AS "endpointId", e.url,
              e.status::text AS "endpointStatus", e.secret_sealed AS "secretSealed"`;
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id) ?? null);
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

/** An attempt that got a 2xx, and how many attempts its delivery keeps. */
export type AcceptedAttempt = Omit<AttemptRecord, "attempt" | "error"> & { kept: number };

/**
 * Records accepted attempts in one statement: each delivery done (its counters counted on from
 * its locked row), the attempt added to its history and what falls out of the last `kept`
 * dropped, and each endpoint's last_success_at (skipped when another success wrote it less
 * than a second ago, so that a busy endpoint is not one hot row). Returns each attempt's
 * number, in the order given; null for a delivery deleted meanwhile (its user or endpoint was).
 */
export async function recordAcceptedAttempts(db: DbClient, attempts: AcceptedAttempt[]): Promise<Array<number | null>> {
  const rows = await db.$queryRaw<Array<{ id: bigint; attempt: number }>>`
    WITH input AS (
      SELECT * FROM unnest(${attempts.map((a) => String(a.deliveryId))}::bigint[], ${attempts.map((a) => a.startedAt.toISOString())}::timestamptz[],
                           ${attempts.map((a) => a.durationMs)}::int[], ${attempts.map((a) => a.statusCode)}::int[],
                           ${attempts.map((a) => a.responseBodyExcerpt)}::text[], ${attempts.map((a) => a.kept)}::int[])
        AS i (delivery_id, started_at, duration_ms, status_code, excerpt, kept)
    ), delivery AS (
      UPDATE webhook_deliveries d
      SET status = 'done', attempts = d.attempts + 1, attempts_made = d.attempts_made + 1,
          last_status_code = i.status_code, last_error = NULL, next_attempt_at = NULL,
          delivered_at = now(), updated_at = now()
      FROM input i
      WHERE d.id = i.delivery_id
      RETURNING d.id, d.attempts_made, d.endpoint_id, i.started_at, i.duration_ms, i.status_code, i.excerpt, i.kept
    ), added AS (
      INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error, response_body_excerpt)
      SELECT id, attempts_made, started_at, duration_ms, status_code, NULL, excerpt FROM delivery
    ), dropped AS (
      DELETE FROM webhook_attempts a USING delivery
      WHERE a.delivery_id = delivery.id AND a.attempt <= delivery.attempts_made - delivery.kept
    ), endpoint AS (
      UPDATE webhook_endpoints e SET last_success_at = now(), failing_since = NULL, updated_at = now()
      WHERE e.id IN (SELECT endpoint_id FROM delivery)
        AND (e.failing_since IS NOT NULL OR e.last_success_at IS NULL OR e.last_success_at < now() - interval '1 second')
    )
    SELECT id, attempts_made AS attempt FROM delivery`;
  const byId = new Map(rows.map((row) => [row.id, row.attempt]));
  return attempts.map((a) => byId.get(a.deliveryId) ?? null);
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
