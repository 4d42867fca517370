import type { DbClient } from "../platform/index.ts";

/** The admin switch of one provider for one tenant; null when never set (the provider is on). */
export async function findTenantProviderSwitch(db: DbClient, tenantId: string, provider: string): Promise<boolean | null> {
  const row = await db.tenantProvider.findUnique({
    where: { tenantId_provider: { tenantId, provider } },
    select: { enabled: true },
  });
  return row?.enabled ?? null;
}

export function upsertTenantProviderSwitch(db: DbClient, tenantId: string, provider: string, enabled: boolean) {
  return db.tenantProvider.upsert({
    where: { tenantId_provider: { tenantId, provider } },
    create: { tenantId, provider, enabled },
    update: { enabled },
    select: { tenantId: true, provider: true, enabled: true, updatedAt: true },
  });
}

/** Every admin switch set for the tenant, with when it was last set. */
export function listTenantProviderSwitches(db: DbClient, tenantId: string) {
  return db.tenantProvider.findMany({ where: { tenantId }, select: { provider: true, enabled: true, updatedAt: true } });
}
