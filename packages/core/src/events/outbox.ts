import type { CoreDeps } from "../deps.ts";
import { EVENT_CATALOG, type EventData, type EventType } from "./event-catalog.ts";
import type { DbClient } from "../platform/index.ts";
import { insertFanOutDeliveries, insertOutboxEvent } from "./outbox-repository.ts";

/** The JSON body of an event as every endpoint receives it (Standard Webhooks payload). */
export function eventBody(event: { id: string; type: string; timestamp: Date; data: unknown; test?: boolean }): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    timestamp: event.timestamp.toISOString(),
    data: event.data,
    ...(event.test && { test: true }),
  });
}

/**
 * Writes an event in the caller's transaction (the same one as the change it announces):
 * the outbox row, one delivery per subscribed endpoint, and each delivery's job, so the
 * event exists, and is sent, exactly when the change commits. `data` is checked against
 * the event's schema: events are thin and never carry a health value.
 */
export async function emitEvent<T extends EventType>(
  tx: DbClient,
  jobs: CoreDeps["jobs"],
  event: { tenantId: string; userId: string | null; type: T; data: EventData<T> },
): Promise<void> {
  const data = EVENT_CATALOG[event.type].data.parse(event.data) as EventData<T>;
  const row = await insertOutboxEvent(tx, { tenantId: event.tenantId, type: event.type, userId: event.userId, data });
  const body = eventBody({ id: row.id, type: event.type, timestamp: row.createdAt, data });
  const deliveryIds = await insertFanOutDeliveries(tx, { tenantId: event.tenantId, userId: event.userId, eventId: row.id, eventType: event.type, body });
  for (const id of deliveryIds) await jobs.send("webhook-deliver", { delivery_id: id.toString() }, tx);
}
