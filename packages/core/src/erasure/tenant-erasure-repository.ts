import type { DbClient } from "../platform/index.ts";

// The rows of a tenant being deleted (erasure/tenant-deletions.ts). Each user's own rows go
// through the user deletion's steps (erasure/user-erasure.ts); these are the tenant's.

/** disabled_reason of the endpoints of a tenant being deleted. */
export const TENANT_DELETED_REASON = "the tenant is being deleted";

/** Locks the tenant's row until the transaction ends; its name and status, null when unknown. */
export async function lockTenant(db: DbClient, tenantId: string): Promise<{ name: string; status: "active" | "deleting" } | null> {
  const rows = await db.$queryRaw<Array<{ name: string; status: "active" | "deleting" }>>`
    SELECT name, status FROM tenants WHERE id = ${tenantId}::uuid FOR UPDATE`;
  return rows[0] ?? null;
}

export async function markTenantDeleting(db: DbClient, tenantId: string): Promise<void> {
  await db.tenant.update({ where: { id: tenantId }, data: { status: "deleting" }, select: { id: true } });
}

/**
 * Every active user of the tenant turns `deleting`, as DELETE /v1/users/{id} does: reads 404,
 * tokens stop, uploads, pulls and ETL of them stop. Their external_ref stays (no event is sent).
 */
export async function markUsersOfTenantDeleting(db: DbClient, tenantId: string): Promise<void> {
  await db.user.updateMany({ where: { tenantId, status: "active" }, data: { status: "deleting" } });
}

export function countUsersOfTenant(db: DbClient, tenantId: string): Promise<number> {
  return db.user.count({ where: { tenantId } });
}

/** Some users of the tenant, whatever their status. */
export async function listUserIdsOfTenant(db: DbClient, tenantId: string, limit: number): Promise<string[]> {
  const rows = await db.user.findMany({ where: { tenantId }, select: { id: true }, orderBy: { id: "asc" }, take: limit });
  return rows.map((row) => row.id);
}

/**
 * Disables every endpoint of the tenant: no delivery is created for them any more, and one
 * already queued is parked without an attempt (webhooks/delivery-attempt.ts).
 */
export async function disableEndpointsOfTenant(db: DbClient, tenantId: string): Promise<void> {
  await db.webhookEndpoint.updateMany({ where: { tenantId }, data: { status: "disabled", disabledReason: TENANT_DELETED_REASON } });
}

/** Deletes up to `limit` deliveries of the tenant's endpoints (their attempts go with them); the count deleted. */
export function deleteTenantDeliveriesBatch(db: DbClient, tenantId: string, limit: number): Promise<number> {
  return db.$executeRaw`
    DELETE FROM webhook_deliveries WHERE id IN (
      SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
      WHERE e.tenant_id = ${tenantId}::uuid LIMIT ${limit})`;
}

/** Deletes up to `limit` outbox events of the tenant; the count deleted. */
export function deleteTenantOutboxBatch(db: DbClient, tenantId: string, limit: number): Promise<number> {
  return db.$executeRaw`
    DELETE FROM outbox_events WHERE id IN (SELECT id FROM outbox_events WHERE tenant_id = ${tenantId}::uuid LIMIT ${limit})`;
}

/**
 * The last rows of a tenant without users, then the tenant: outbox events, idempotent answers,
 * user deletion jobs, the tenant's own audit entries (actor `tenant`; an instance admin's
 * entries about the tenant stay in the instance's log), its rate-limit counter, its webhook
 * endpoints with their deliveries and attempts, and the tenant row with its API keys, provider
 * switches and own provider keys (foreign keys with ON DELETE CASCADE).
 */
export async function deleteTenantRows(db: DbClient, tenantId: string): Promise<void> {
  await db.outboxEvent.deleteMany({ where: { tenantId } });
  await db.idempotencyRecord.deleteMany({ where: { tenantId } });
  await db.deletionJob.deleteMany({ where: { tenantId } });
  await db.auditEntry.deleteMany({ where: { tenantId, actorKind: "tenant" } });
  await db.rateLimit.deleteMany({ where: { key: `tenant:${tenantId}` } });
  await db.webhookEndpoint.deleteMany({ where: { tenantId } });
  await db.tenant.deleteMany({ where: { id: tenantId } });
}

/**
 * Whether an attempt of a pull of any user of the tenant is under way (as sync-run-repository's
 * pullUnderWay for one user and provider): an attempt that started before `since` is taken to
 * have died.
 */
export async function pullUnderWayInTenant(db: DbClient, tenantId: string, since: Date): Promise<boolean> {
  const run = await db.syncRun.findFirst({
    where: { user: { tenantId }, status: { in: ["running", "cancelled"] }, startedAt: { gt: since }, finishedAt: null },
    select: { id: true },
  });
  return run !== null;
}
