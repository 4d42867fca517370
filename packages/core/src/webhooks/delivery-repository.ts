import type { DbClient } from "../platform/index.ts";

/** Deletes every delivery about a user, sent or not (their attempts go by cascade). */
export function deleteWebhookDeliveriesAboutUser(db: DbClient, userId: string) {
  return db.webhookDelivery.deleteMany({ where: { userId } });
}

// Management side (the webhook routes): list, read, retry, replay, park.

const deliveryFields = {
  id: true,
  endpointId: true,
  eventId: true,
  eventType: true,
  status: true,
  attempts: true,
  lastStatusCode: true,
  lastError: true,
  nextAttemptAt: true,
  deliveredAt: true,
  createdAt: true,
  replayOf: true,
} as const;

export type WebhookDeliveryStatusValue = "pending" | "running" | "done" | "parked";

/** A delivery as the management routes list it. */
export interface WebhookDeliveryRow {
  id: bigint;
  endpointId: string;
  eventId: string;
  eventType: string;
  status: WebhookDeliveryStatusValue;
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  deliveredAt: Date | null;
  createdAt: Date;
  replayOf: bigint | null;
}

/** A delivery with the exact body it sends, and what its user and tenant are (for a replay). */
export interface WebhookDeliveryWithBody extends WebhookDeliveryRow {
  tenantId: string;
  userId: string | null;
  body: string;
}

export interface WebhookAttemptRow {
  id: bigint;
  attempt: number;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  responseBodyExcerpt: string | null;
}

/** One page of an endpoint's deliveries, newest first (by id), optionally of one status; one row more than `limit`. */
export function selectWebhookDeliveries(
  db: DbClient,
  q: { endpointId: string; status?: WebhookDeliveryStatusValue | undefined; beforeId?: bigint | undefined; limit: number },
): Promise<WebhookDeliveryRow[]> {
  return db.webhookDelivery.findMany({
    where: {
      endpointId: q.endpointId,
      ...(q.status !== undefined && { status: q.status }),
      ...(q.beforeId !== undefined && { id: { lt: q.beforeId } }),
    },
    orderBy: { id: "desc" },
    take: q.limit + 1,
    select: deliveryFields,
  });
}

/** The endpoint's delivery with its body; null for an unknown id or another endpoint's. */
export function findWebhookDelivery(db: DbClient, endpointId: string, deliveryId: bigint): Promise<WebhookDeliveryWithBody | null> {
  return db.webhookDelivery.findFirst({
    where: { id: deliveryId, endpointId },
    select: { ...deliveryFields, tenantId: true, userId: true, body: true },
  });
}

/** The last `count` attempts of a delivery, oldest first. */
export async function selectRecentAttempts(db: DbClient, deliveryId: bigint, count: number): Promise<WebhookAttemptRow[]> {
  const rows = await db.webhookAttempt.findMany({
    where: { deliveryId },
    orderBy: [{ attempt: "desc" }, { id: "desc" }],
    take: count,
    select: { id: true, attempt: true, startedAt: true, durationMs: true, statusCode: true, error: true, responseBodyExcerpt: true },
  });
  return rows.reverse();
}

/** A new pending delivery of one endpoint, due at once (test route and replays); returns its id. */
export async function insertWebhookDelivery(
  db: DbClient,
  delivery: { endpointId: string; tenantId: string; userId: string | null; eventId: string; eventType: string; body: string; replayOf: bigint | null },
): Promise<bigint> {
  const rows = await db.$queryRaw<Array<{ id: bigint }>>`
    INSERT INTO webhook_deliveries (endpoint_id, tenant_id, user_id, event_id, event_type, body, replay_of, next_attempt_at)
    VALUES (${delivery.endpointId}::uuid, ${delivery.tenantId}::uuid, ${delivery.userId}::uuid, ${delivery.eventId}::uuid,
            ${delivery.eventType}, ${delivery.body}, ${delivery.replayOf}, now())
    RETURNING id`;
  const row = rows[0];
  if (!row) throw new Error("INSERT … RETURNING gave no row");
  return row.id;
}

/**
 * Queues a done or parked delivery again from its first attempt: status, attempt count, last
 * status code and error, and delivered_at start over; the attempt history and attempts_made
 * go on. False when the delivery is not done or parked (pending, running, or gone).
 */
export async function requeueWebhookDelivery(db: DbClient, endpointId: string, deliveryId: bigint): Promise<boolean> {
  const count = await db.$executeRaw`
    UPDATE webhook_deliveries
    SET status = 'pending', attempts = 0, last_status_code = NULL, last_error = NULL, delivered_at = NULL,
        next_attempt_at = now(), updated_at = now()
    WHERE id = ${deliveryId} AND endpoint_id = ${endpointId}::uuid AND status IN ('done', 'parked')`;
  return count === 1;
}

/** Holds the count of the endpoint's waiting replays steady until the transaction ends. */
export async function lockWebhookReplaysOfEndpoint(db: DbClient, endpointId: string): Promise<void> {
  await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('webhook_replays'), hashtext(${endpointId}))`;
}

/** Replays of the endpoint that still wait (pending or running). */
export function countWaitingReplays(db: DbClient, endpointId: string): Promise<number> {
  return db.webhookDelivery.count({ where: { endpointId, replayOf: { not: null }, status: { in: ["pending", "running"] } } });
}

/** Parks every pending delivery of the endpoint (it was disabled); returns how many. */
export async function parkPendingDeliveriesOfEndpoint(db: DbClient, endpointId: string): Promise<number> {
  const { count } = await db.webhookDelivery.updateMany({
    where: { endpointId, status: "pending" },
    data: { status: "parked", nextAttemptAt: null },
  });
  return count;
}
