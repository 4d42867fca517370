import { router } from "../../trpc.ts";
import { createTenant } from "./create-tenant.ts";
import { getTenant } from "./get-tenant.ts";
import { listTenants } from "./list-tenants.ts";

/** The instance's tenants for an instance admin: list, read and create. */
export const adminTenantsRouter = router({
  listTenants,
  getTenant,
  createTenant,
});
