import type { DbClient } from "../platform/index.ts";

const endpointFields = {
  id: true,
  tenantId: true,
  url: true,
  description: true,
  eventTypes: true,
  status: true,
  disabledReason: true,
  failingSince: true,
  lastSuccessAt: true,
  createdAt: true,
  updatedAt: true,
} as const;

/** An endpoint as the management routes read it; the sealed secret is read only where needed. */
export interface WebhookEndpointRow {
  id: string;
  tenantId: string;
  url: string;
  description: string;
  eventTypes: string[];
  status: "active" | "disabled";
  disabledReason: string | null;
  failingSince: Date | null;
  lastSuccessAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface WebhookEndpointWrite {
  url: string;
  description: string;
  eventTypes: string[];
  secretSealed: string;
}

/** What a PATCH may change; absent fields stay. */
export interface WebhookEndpointChange {
  url?: string;
  description?: string;
  eventTypes?: string[];
  status?: "active" | "disabled";
  disabledReason?: string | null;
  failingSince?: Date | null;
}

/** Holds the tenant's endpoint count steady until the transaction ends (two creations run one after the other). */
export async function lockWebhookEndpointsOfTenant(db: DbClient, tenantId: string): Promise<void> {
  await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('webhook_endpoints'), hashtext(${tenantId}))`;
}

export function countWebhookEndpoints(db: DbClient, tenantId: string): Promise<number> {
  return db.webhookEndpoint.count({ where: { tenantId } });
}

export function insertWebhookEndpoint(db: DbClient, tenantId: string, endpoint: WebhookEndpointWrite): Promise<WebhookEndpointRow> {
  return db.webhookEndpoint.create({ data: { tenantId, ...endpoint }, select: endpointFields });
}

/** The tenant's endpoint; null for an unknown id or another tenant's. */
export function findWebhookEndpoint(db: DbClient, tenantId: string, endpointId: string): Promise<WebhookEndpointRow | null> {
  return db.webhookEndpoint.findFirst({ where: { id: endpointId, tenantId }, select: endpointFields });
}

/** One page of the tenant's endpoints, oldest first; one row more than `limit`. */
export function selectWebhookEndpoints(
  db: DbClient,
  tenantId: string,
  limit: number,
  after?: { t: Date; id: string },
): Promise<WebhookEndpointRow[]> {
  return db.webhookEndpoint.findMany({
    where: {
      tenantId,
      ...(after && { OR: [{ createdAt: { gt: after.t } }, { createdAt: after.t, id: { gt: after.id } }] }),
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: limit + 1,
    select: endpointFields,
  });
}

export function updateWebhookEndpoint(db: DbClient, endpointId: string, change: WebhookEndpointChange): Promise<WebhookEndpointRow> {
  return db.webhookEndpoint.update({ where: { id: endpointId }, data: change, select: endpointFields });
}

export async function setWebhookEndpointSecret(db: DbClient, tenantId: string, endpointId: string, secretSealed: string): Promise<boolean> {
  const { count } = await db.webhookEndpoint.updateMany({ where: { id: endpointId, tenantId }, data: { secretSealed } });
  return count === 1;
}

/** Deletes the endpoint; its deliveries and their attempts go by cascade. */
export async function deleteWebhookEndpoint(db: DbClient, tenantId: string, endpointId: string): Promise<boolean> {
  const { count } = await db.webhookEndpoint.deleteMany({ where: { id: endpointId, tenantId } });
  return count === 1;
}

/**
 * The endpoint's status, its row held until the transaction ends: "update" before a PATCH,
 * "share" while a delivery of it is queued (so a concurrent disable waits and parks it).
 * Null for an unknown id or another tenant's.
 */
export async function lockWebhookEndpoint(
  db: DbClient,
  tenantId: string,
  endpointId: string,
  mode: "share" | "update",
): Promise<"active" | "disabled" | null> {
  const rows =
    mode === "update"
      ? await db.$queryRaw<Array<{ status: "active" | "disabled" }>>`
          SELECT status::text AS status FROM webhook_endpoints WHERE id = ${endpointId}::uuid AND tenant_id = ${tenantId}::uuid FOR NO KEY UPDATE`
      : await db.$queryRaw<Array<{ status: "active" | "disabled" }>>`
          SELECT status::text AS status FROM webhook_endpoints WHERE id = ${endpointId}::uuid AND tenant_id = ${tenantId}::uuid FOR SHARE`;
  return rows[0]?.status ?? null;
}
