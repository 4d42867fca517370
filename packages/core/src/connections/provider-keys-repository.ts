import type { DbClient } from "../platform/index.ts";

/** The instance admin's saved configuration of a provider; null when nothing was saved. */
export function findInstanceProvider(db: DbClient, provider: string) {
  return db.instanceProvider.findUnique({ where: { provider } });
}

/** A tenant's own keys of a provider (sealed); null when it has none. */
export function findTenantProviderKeys(db: DbClient, tenantId: string, provider: string) {
  return db.tenantProviderKeys.findUnique({ where: { tenantId_provider: { tenantId, provider } } });
}

const instanceFields = { provider: true, enabled: true, sealedKeys: true, updatedAt: true, updatedBy: true } as const;

/** Every provider the instance admin saved something for (keys or switch). */
export function listInstanceProviders(db: DbClient) {
  return db.instanceProvider.findMany({ select: instanceFields });
}

/** Saves instance keys from the console (sealed), keeping the instance switch. */
export function upsertInstanceProviderKeys(db: DbClient, input: { provider: string; sealedKeys: string; updatedBy: string }) {
  return db.instanceProvider.upsert({
    where: { provider: input.provider },
    create: input,
    update: { sealedKeys: input.sealedKeys, updatedBy: input.updatedBy },
    select: instanceFields,
  });
}

/** Sets the instance switch, keeping saved keys. */
export function upsertInstanceProviderSwitch(db: DbClient, input: { provider: string; enabled: boolean; updatedBy: string }) {
  return db.instanceProvider.upsert({
    where: { provider: input.provider },
    create: input,
    update: { enabled: input.enabled, updatedBy: input.updatedBy },
    select: instanceFields,
  });
}

/** Deletes what the instance admin saved for a provider; false when nothing was saved. */
export async function deleteInstanceProvider(db: DbClient, provider: string): Promise<boolean> {
  const { count } = await db.instanceProvider.deleteMany({ where: { provider } });
  return count > 0;
}

/** Replaces a tenant's own keys of a provider (sealed). */
export function upsertTenantProviderKeys(
  db: DbClient,
  input: { tenantId: string; provider: string; sealedKeys: string; applicationId: string; updatedBy: string },
) {
  const { tenantId, provider, ...fields } = input;
  return db.tenantProviderKeys.upsert({
    where: { tenantId_provider: { tenantId, provider } },
    create: input,
    update: fields,
  });
}

/** Removes a tenant's own keys of a provider; false when it had none. */
export async function deleteTenantProviderKeys(db: DbClient, tenantId: string, provider: string): Promise<boolean> {
  const { count } = await db.tenantProviderKeys.deleteMany({ where: { tenantId, provider } });
  return count > 0;
}

/** The sealed own keys of every tenant for a provider, with the application they name (inbound notifications try each). */
export function listSealedTenantKeys(db: DbClient, provider: string): Promise<Array<{ sealedKeys: string; applicationId: string }>> {
  return db.tenantProviderKeys.findMany({ where: { provider }, select: { sealedKeys: true, applicationId: true } });
}
