import { router } from "../../trpc.ts";
import { deleteInstanceProvider } from "./delete-instance-provider.ts";
import { deleteTenantProviderKeys } from "./delete-tenant-provider-keys.ts";
import { getInstanceProvider } from "./get-instance-provider.ts";
import { getTenantProviderKeys } from "./get-tenant-provider-keys.ts";
import { listInstanceProviders } from "./list-instance-providers.ts";
import { listTenantProviders } from "./list-tenant-providers.ts";
import { setInstanceProviderKeys } from "./set-instance-provider-keys.ts";
import { setTenantProviderKeys } from "./set-tenant-provider-keys.ts";
import { updateInstanceProvider } from "./update-instance-provider.ts";
import { updateTenantProvider } from "./update-tenant-provider.ts";

/** Instance admin routes of providers: tenant switches and own keys, instance configuration. */
export const adminProvidersRouter = router({
  listTenantProviders,
  updateTenantProvider,
  getTenantProviderKeys,
  setTenantProviderKeys,
  deleteTenantProviderKeys,
  listInstanceProviders,
  getInstanceProvider,
  updateInstanceProvider,
  setInstanceProviderKeys,
  deleteInstanceProvider,
});
