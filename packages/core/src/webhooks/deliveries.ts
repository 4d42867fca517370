import { randomUUID } from "node:crypto";
import { z } from "zod";
import { AppError, type DbClient, decodeCursor, type Page, toPage } from "../platform/index.ts";
import type { CoreDeps } from "../deps.ts";
import { EVENT_CATALOG, eventBody, type EventType } from "../events/index.ts";
import {
  countWaitingReplays,
  findWebhookDelivery,
  insertWebhookDelivery,
  lockWebhookReplaysOfEndpoint,
  requeueWebhookDelivery,
  selectRecentAttempts,
  selectWebhookDeliveries,
  type WebhookDeliveryStatusValue,
} from "./delivery-repository.ts";
import { lockWebhookEndpoint } from "./endpoint-repository.ts";
import { type AuditContext, recordAudit } from "../identity/index.ts";
import { toWebhookDeliveryDetailDto, toWebhookDeliveryDto, type WebhookDeliveryDetailDto, type WebhookDeliveryDto } from "./webhook-dto.ts";
import { requireWebhookEndpoint } from "./endpoints.ts";

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "running", "done", "parked"] as const satisfies readonly WebhookDeliveryStatusValue[];

/** Seconds a caller is told to wait (Retry-After) when too many replays of an endpoint wait. */
export const REPLAY_RETRY_AFTER_SECONDS = 60;

type DeliveryDeps = Pick<CoreDeps, "db" | "jobs" | "webhooks">;

/** Sort key of the deliveries list (newest first by id). */
const DeliveryCursor = z.object({ id: z.string().regex(/^[0-9]{1,19}$/) }).strict();

const deliveryNotFound = () => new AppError("not_found", "No such delivery of this webhook endpoint.");

/** The delivery's path, as the Location of a new one. */
export const webhookDeliveryPath = (endpointId: string, deliveryId: number) => `/v1/webhooks/${endpointId}/deliveries/${deliveryId}`;

/**
 * The endpoint's row held (FOR SHARE) while a delivery of it is queued, so a concurrent
 * disable waits and then parks it. 404 for another tenant's or an unknown endpoint; 409 while
 * it is disabled (a disabled endpoint is sent nothing; PATCH enabled true first).
 */
async function holdActiveEndpoint(tx: DbClient, tenantId: string, endpointId: string): Promise<void> {
  const status = await lockWebhookEndpoint(tx, tenantId, endpointId, "share");
  if (status === null) throw new AppError("not_found", "No such webhook endpoint.");
  if (status === "disabled") {
    throw new AppError("conflict", "The webhook endpoint is disabled: enable it (PATCH with enabled true) first.");
  }
}

async function deliveryDetail(db: DbClient, endpointId: string, deliveryId: bigint, historyKept: number): Promise<WebhookDeliveryDetailDto> {
  const row = await findWebhookDelivery(db, endpointId, deliveryId);
  if (!row) throw deliveryNotFound();
  return toWebhookDeliveryDetailDto(row, await selectRecentAttempts(db, row.id, historyKept));
}

/**
 * POST /v1/webhooks/{webhook_id}/test: one delivery for this endpoint only, whatever its
 * event_types, with `test: true` in the body. No type (or webhook.test): the generic
 * webhook.test event naming the endpoint; another type: that type's sample about the all-zero
 * user. A new event id; no outbox row (nothing happened).
 */
export async function sendTestEvent(
  { db, jobs, webhooks }: DeliveryDeps,
  tenantId: string,
  endpointId: string,
  input: { event_type?: EventType | undefined },
): Promise<WebhookDeliveryDetailDto> {
  const type = input.event_type ?? "webhook.test";
  const data = type === "webhook.test" ? { endpoint_id: endpointId } : EVENT_CATALOG[type].sample;
  const eventId = randomUUID();
  const body = eventBody({ id: eventId, type, timestamp: new Date(), data, test: true });
  return db.$transaction(async (tx) => {
    await holdActiveEndpoint(tx, tenantId, endpointId);
    const id = await insertWebhookDelivery(tx, { endpointId, tenantId, userId: null, eventId, eventType: type, body, replayOf: null });
    await jobs.send("webhook-deliver", { delivery_id: id.toString() }, tx);
    return deliveryDetail(tx, endpointId, id, webhooks.schedule.historyKept);
  });
}

/** GET /v1/webhooks/{webhook_id}/deliveries: newest first, optionally of one status. */
export async function listWebhookDeliveries(
  db: DbClient,
  tenantId: string,
  endpointId: string,
  input: { status?: WebhookDeliveryStatusValue | undefined; cursor?: string | undefined; limit: number },
): Promise<Page<WebhookDeliveryDto>> {
  const beforeId = input.cursor === undefined ? undefined : BigInt(decodeCursor(input.cursor, DeliveryCursor).id);
  const endpoint = await requireWebhookEndpoint(db, tenantId, endpointId);
  const rows = await selectWebhookDeliveries(db, { endpointId: endpoint.id, status: input.status, beforeId, limit: input.limit });
  return toPage(rows, input.limit, toWebhookDeliveryDto, (row) => ({ id: row.id.toString() }));
}

/** GET /v1/webhooks/{webhook_id}/deliveries/{delivery_id}: with payload and the last 20 attempts. */
export async function getWebhookDelivery(
  { db, webhooks }: Pick<CoreDeps, "db" | "webhooks">,
  tenantId: string,
  endpointId: string,
  deliveryId: number,
): Promise<WebhookDeliveryDetailDto> {
  const endpoint = await requireWebhookEndpoint(db, tenantId, endpointId);
  return deliveryDetail(db, endpoint.id, BigInt(deliveryId), webhooks.schedule.historyKept);
}

const stillWaiting = () =>
  new AppError("conflict", "The delivery is still pending or running: wait until it is done or parked.");

/**
 * POST .../deliveries/{delivery_id}/retry: a done or parked delivery is queued again from
 * its first attempt (status, attempts, last status code and error, delivered_at start over;
 * the attempt history goes on), and its job is sent in the same transaction. 409 while it is
 * pending or running.
 */
export async function retryWebhookDelivery(
  { db, jobs, webhooks }: DeliveryDeps,
  tenantId: string,
  endpointId: string,
  deliveryId: number,
  /** An instance admin's retry is recorded in the audit log, in the retry's transaction. */
  adminAudit?: AuditContext,
): Promise<WebhookDeliveryDetailDto> {
  const id = BigInt(deliveryId);
  return db.$transaction(async (tx) => {
    await holdActiveEndpoint(tx, tenantId, endpointId);
    if (!(await requeueWebhookDelivery(tx, endpointId, id))) {
      if (!(await findWebhookDelivery(tx, endpointId, id))) throw deliveryNotFound();
      throw stillWaiting();
    }
    await jobs.send("webhook-deliver", { delivery_id: id.toString() }, tx);
    if (adminAudit) {
      await recordAudit(tx, adminAudit, "webhook.delivery.retry", { tenantId, resource: { type: "webhook_delivery", id: String(deliveryId) } });
    }
    return deliveryDetail(tx, endpointId, id, webhooks.schedule.historyKept);
  });
}

/**
 * POST .../deliveries/{delivery_id}/replay: a new delivery of the same event (same event id
 * and body) with replay_of naming the original, and its job, in one transaction. 409 while
 * the original is pending or running; 429 when 10 replays of the endpoint already wait.
 */
export async function replayWebhookDelivery(
  { db, jobs, webhooks }: DeliveryDeps,
  tenantId: string,
  endpointId: string,
  deliveryId: number,
): Promise<WebhookDeliveryDetailDto> {
  return db.$transaction(async (tx) => {
    await holdActiveEndpoint(tx, tenantId, endpointId);
    const original = await findWebhookDelivery(tx, endpointId, BigInt(deliveryId));
    if (!original) throw deliveryNotFound();
    if (original.status === "pending" || original.status === "running") throw stillWaiting();
    await lockWebhookReplaysOfEndpoint(tx, endpointId);
    const max = webhooks.schedule.waitingReplaysMax;
    if ((await countWaitingReplays(tx, endpointId)) >= max) {
      throw new AppError("too_many_requests", `${max} replays of this webhook endpoint are already waiting: try again when some are done.`, {
        headers: { "Retry-After": String(REPLAY_RETRY_AFTER_SECONDS) },
      });
    }
    const id = await insertWebhookDelivery(tx, {
      endpointId,
      tenantId,
      userId: original.userId,
      eventId: original.eventId,
      eventType: original.eventType,
      body: original.body,
      replayOf: original.id,
    });
    await jobs.send("webhook-deliver", { delivery_id: id.toString() }, tx);
    return deliveryDetail(tx, endpointId, id, webhooks.schedule.historyKept);
  });
}
