import type { DbClient } from "../platform/index.ts";

const keyFields = { id: true, name: true, createdAt: true, revokedAt: true } as const;

export function insertTenantApiKey(db: DbClient, input: { tenantId: string; name: string; keyHash: string }) {
  return db.tenantApiKey.create({ data: input, select: keyFields });
}

/** A tenant's keys, oldest first, revoked ones included; never the hashes. */
export function listTenantApiKeys(db: DbClient, tenantId: string) {
  return db.tenantApiKey.findMany({ where: { tenantId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: keyFields });
}

/** Revokes one active key of the tenant; the count of keys revoked (0 or 1). */
export async function revokeTenantApiKey(db: DbClient, tenantId: string, keyId: string, now: Date): Promise<number> {
  const { count } = await db.tenantApiKey.updateMany({ where: { id: keyId, tenantId, revokedAt: null }, data: { revokedAt: now } });
  return count;
}

export function countActiveTenantApiKeys(db: DbClient, tenantId: string) {
  return db.tenantApiKey.count({ where: { tenantId, revokedAt: null } });
}
