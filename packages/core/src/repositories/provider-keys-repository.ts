import type { DbClient } from "./db-client.ts";

/** The instance admin's saved configuration of a provider; null when nothing was saved. */
export function findInstanceProvider(db: DbClient, provider: string) {
  return db.instanceProvider.findUnique({ where: { provider } });
}

/** A tenant's own keys of a provider (sealed); null when it has none. */
export function findTenantProviderKeys(db: DbClient, tenantId: string, provider: string) {
  return db.tenantProviderKeys.findUnique({ where: { tenantId_provider: { tenantId, provider } } });
}
