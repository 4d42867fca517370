import { getTenantSummary } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import { getTenantMeta, ZGetTenantRequestSchema, ZGetTenantResponseSchema } from "./get-tenant.types.ts";

export const getTenant = adminProcedure
  .meta(getTenantMeta)
  .input(ZGetTenantRequestSchema)
  .output(ZGetTenantResponseSchema)
  .query(({ ctx, input }) => getTenantSummary(ctx.deps.db, input.tenant_id));
