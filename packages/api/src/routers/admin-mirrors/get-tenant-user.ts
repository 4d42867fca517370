import { auditContextOf, getUserForAdmin } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import { getTenantUserMeta, ZGetTenantUserRequestSchema, ZGetTenantUserResponseSchema } from "./get-tenant-user.types.ts";

export const getTenantUser = adminProcedure
  .meta(getTenantUserMeta)
  .input(ZGetTenantUserRequestSchema)
  .output(ZGetTenantUserResponseSchema)
  .query(({ ctx, input }) => getUserForAdmin(ctx.deps, auditContextOf(ctx.principal, ctx.requestId), input.tenant_id, input.id));
