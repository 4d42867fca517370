import { listAuditLog as listAuditLogService } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { listAuditLogMeta, ZListAuditLogRequestSchema, ZListAuditLogResponseSchema } from "./list-audit-log.types.ts";

export const listAuditLog = tenantProcedure
  .meta(listAuditLogMeta)
  .input(ZListAuditLogRequestSchema)
  .output(ZListAuditLogResponseSchema)
  .query(({ ctx, input }) => listAuditLogService(ctx.deps.db, { kind: "tenant", tenantId: ctx.principal.tenantId }, input));
