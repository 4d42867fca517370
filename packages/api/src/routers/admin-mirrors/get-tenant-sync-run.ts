import { auditContextOf, getSyncRunForAdmin } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import { getTenantSyncRunMeta, ZGetTenantSyncRunRequestSchema, ZGetTenantSyncRunResponseSchema } from "./get-tenant-sync-run.types.ts";

export const getTenantSyncRun = adminProcedure
  .meta(getTenantSyncRunMeta)
  .input(ZGetTenantSyncRunRequestSchema)
  .output(ZGetTenantSyncRunResponseSchema)
  .query(({ ctx, input }) =>
    getSyncRunForAdmin(ctx.deps, auditContextOf(ctx.principal, ctx.requestId), input.tenant_id, input.id, input.run_id),
  );
