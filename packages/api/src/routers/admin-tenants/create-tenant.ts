import { auditContextOf, createTenantForAdmin } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import { createTenantMeta, ZCreateTenantRequestSchema, ZCreateTenantResponseSchema } from "./create-tenant.types.ts";

export const createTenant = adminProcedure
  .meta(createTenantMeta)
  .input(ZCreateTenantRequestSchema)
  .output(ZCreateTenantResponseSchema)
  .mutation(async ({ ctx, input }) => {
    const created = await createTenantForAdmin(ctx.deps, auditContextOf(ctx.principal, ctx.requestId), input.name);
    ctx.response.status = 201;
    ctx.response.headers["Cache-Control"] = "no-store";
    ctx.response.headers.Location = `/v1/admin/tenants/${created.tenant_id}`;
    return created;
  });
