import type { Prisma } from "@svc/db";
import type { DbClient } from "../platform/index.ts";

export function insertOutboxEvent(
  db: DbClient,
  input: { tenantId: string; type: string; userId: string | null; data: Prisma.InputJsonValue },
) {
  return db.outboxEvent.create({ data: input, select: { id: true, createdAt: true } });
}

/**
 * One pending delivery of an event for each active endpoint of the tenant subscribed to its
 * type (no event types: every type). Returns the new deliveries' ids.
 */
export async function insertFanOutDeliveries(
  db: DbClient,
  event: { tenantId: string; userId: string | null; eventId: string; eventType: string; body: string },
): Promise<bigint[]> {
  const rows = await db.$queryRaw<Array<{ id: bigint }>>`
    INSERT INTO webhook_deliveries (endpoint_id, tenant_id, user_id, event_id, event_type, body, next_attempt_at)
    SELECT e.id, e.tenant_id, ${event.userId}::uuid, ${event.eventId}::uuid, ${event.eventType}, ${event.body}, now()
    FROM webhook_endpoints e
    WHERE e.tenant_id = ${event.tenantId}::uuid AND e.status = 'active'
      AND (cardinality(e.event_types) = 0 OR ${event.eventType} = ANY(e.event_types))
    RETURNING id`;
  return rows.map((row) => row.id);
}
