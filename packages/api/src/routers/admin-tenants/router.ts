import { router } from "../../trpc.ts";
import { createTenant } from "./create-tenant.ts";
import { deleteTenant } from "./delete-tenant.ts";
import { getTenantDeletionJob } from "./get-tenant-deletion.ts";
import { getTenant } from "./get-tenant.ts";
import { listTenants } from "./list-tenants.ts";

/** The instance's tenants for an instance admin: list, read, create and delete (and follow a deletion). */
export const adminTenantsRouter = router({
  listTenants,
  getTenant,
  createTenant,
  deleteTenant,
  getTenantDeletionJob,
});
