import type { DbClient } from "../platform/index.ts";

export function insertTenantWithKey(db: DbClient, input: { name: string; keyName: string; keyHash: string }) {
  return db.tenant.create({
    data: { name: input.name, apiKeys: { create: { name: input.keyName, keyHash: input.keyHash } } },
    select: { id: true, name: true },
  });
}

export function findTenantByName(db: DbClient, name: string) {
  return db.tenant.findFirst({ where: { name }, select: { id: true } });
}

/** A key that is not revoked, of a tenant that is not being deleted. */
export function findActiveTenantKey(db: DbClient, keyHash: string) {
  return db.tenantApiKey.findFirst({
    where: { keyHash, revokedAt: null, tenant: { status: "active" } },
    select: { id: true, tenantId: true },
  });
}

/** Serialises work across processes for the rest of the transaction. */
export async function lockForTransaction(db: DbClient, key: number): Promise<void> {
  await db.$executeRaw`SELECT pg_advisory_xact_lock(${key})`;
}

/** A tenant by id; null when unknown or being deleted. */
export function findActiveTenantById(db: DbClient, id: string) {
  return db.tenant.findFirst({ where: { id, status: "active" }, select: { id: true, name: true } });
}
