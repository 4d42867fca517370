import type { CoreDeps } from "../deps.ts";
import type { ProviderKind } from "../providers/provider-catalog.ts";
import { providerOnForTenant } from "./tenant-providers.ts";

/** One entry of GET /v1/providers. */
export interface ProviderDto {
  slug: string;
  name: string;
  kind: ProviderKind;
  data_types: string[];
}

/**
 * GET /v1/providers: the providers of this build the tenant may use, in the registry's
 * order; those an instance admin switched off for the tenant are left out.
 */
export async function listTenantProviders({ db, providers }: Pick<CoreDeps, "db" | "providers">, tenantId: string): Promise<{ data: ProviderDto[] }> {
  const data: ProviderDto[] = [];
  for (const provider of providers.all()) {
    if (!(await providerOnForTenant(db, tenantId, provider.slug))) continue;
    data.push({ slug: provider.slug, name: provider.name, kind: provider.kind, data_types: [...provider.dataTypes] });
  }
  return { data };
}
