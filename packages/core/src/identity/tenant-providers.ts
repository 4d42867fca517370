import { AppError, type DbClient } from "../platform/index.ts";
import { findTenantProviderSwitch, upsertTenantProviderSwitch } from "./tenant-provider-repository.ts";

/** Whether an instance admin left `provider` on for the tenant (it is on unless switched off). */
export async function providerOnForTenant(db: DbClient, tenantId: string, provider: string): Promise<boolean> {
  return (await findTenantProviderSwitch(db, tenantId, provider)) !== false;
}

/** 403 when an instance admin switched `provider` off for the tenant (uploads, self reports, connecting). */
export async function requireProviderOnForTenant(db: DbClient, tenantId: string, provider: string): Promise<void> {
  if (!(await providerOnForTenant(db, tenantId, provider))) {
    throw new AppError("forbidden", `The provider ${provider} is switched off for this tenant.`);
  }
}

/** Sets the admin switch of a provider for a tenant. */
export function setTenantProviderSwitch(db: DbClient, tenantId: string, provider: string, enabled: boolean) {
  return upsertTenantProviderSwitch(db, tenantId, provider, enabled);
}
