import { auditContextOf, requestTenantDeletion } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import { deleteTenantMeta, ZDeleteTenantRequestSchema, ZDeleteTenantResponseSchema } from "./delete-tenant.types.ts";

export const deleteTenant = adminProcedure
  .meta(deleteTenantMeta)
  .input(ZDeleteTenantRequestSchema)
  .output(ZDeleteTenantResponseSchema)
  .mutation(async ({ ctx, input }) => {
    const deletion = await requestTenantDeletion(ctx.deps, auditContextOf(ctx.principal, ctx.requestId), input.tenant_id);
    ctx.response.status = 202;
    ctx.response.headers.Location = `/v1/admin/tenant-deletions/${deletion.job_id}`;
    return deletion;
  });
