import { listAuditLog } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import { listAdminAuditLogMeta, ZListAdminAuditLogRequestSchema, ZListAdminAuditLogResponseSchema } from "./list-admin-audit-log.types.ts";

export const listAdminAuditLog = adminProcedure
  .meta(listAdminAuditLogMeta)
  .input(ZListAdminAuditLogRequestSchema)
  .output(ZListAdminAuditLogResponseSchema)
  .query(({ ctx, input }) => listAuditLog(ctx.deps.db, { kind: "instance" }, input));
