import { auditContextOf, listTenantAuditLogForAdmin } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import { listTenantAuditLogMeta, ZListTenantAuditLogRequestSchema, ZListTenantAuditLogResponseSchema } from "./list-tenant-audit-log.types.ts";

export const listTenantAuditLog = adminProcedure
  .meta(listTenantAuditLogMeta)
  .input(ZListTenantAuditLogRequestSchema)
  .output(ZListTenantAuditLogResponseSchema)
  .query(({ ctx, input }) => {
    const { tenant_id, ...page } = input;
    return listTenantAuditLogForAdmin(ctx.deps, auditContextOf(ctx.principal, ctx.requestId), tenant_id, page);
  });
