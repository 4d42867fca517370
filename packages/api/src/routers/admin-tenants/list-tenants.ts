import { listTenants as listTenantsService } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import { listTenantsMeta, ZListTenantsRequestSchema, ZListTenantsResponseSchema } from "./list-tenants.types.ts";

export const listTenants = adminProcedure
  .meta(listTenantsMeta)
  .input(ZListTenantsRequestSchema)
  .output(ZListTenantsResponseSchema)
  .query(({ ctx, input }) => listTenantsService(ctx.deps.db, input));
