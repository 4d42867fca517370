import type { CoreDeps } from "../deps.ts";
import { isConnector, type ProviderKind } from "./providers/provider-catalog.ts";
import { providerOnForTenant } from "../identity/index.ts";

/** One entry of GET /v1/providers. */
export interface ProviderDto {
  slug: string;
  name: string;
  kind: ProviderKind;
  data_types: string[];
}

/**
 * GET /v1/providers: the providers of this build the tenant may use, in the registry's
 * order. Device providers unless an instance admin switched them off for the tenant; OAuth
 * and push providers when available (switched on, and the tenant's own keys or the
 * instance run them).
 */
export async function listTenantProviders(
  { db, providers, providerConfig }: Pick<CoreDeps, "db" | "providers" | "providerConfig">,
  tenantId: string,
): Promise<{ data: ProviderDto[] }> {
  const data: ProviderDto[] = [];
  for (const provider of providers.all()) {
    const usable = isConnector(provider)
      ? (await providerConfig.availability(tenantId, provider)).available
      : await providerOnForTenant(db, tenantId, provider.slug);
    if (!usable) continue;
    data.push({ slug: provider.slug, name: provider.name, kind: provider.kind, data_types: [...provider.dataTypes] });
  }
  return { data };
}
