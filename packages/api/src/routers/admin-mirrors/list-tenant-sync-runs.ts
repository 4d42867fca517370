import { auditContextOf, listSyncRunsForAdmin } from "@svc/core";
import { adminProcedure } from "../../middlewares/authenticate.ts";
import { listTenantSyncRunsMeta, ZListTenantSyncRunsRequestSchema, ZListTenantSyncRunsResponseSchema } from "./list-tenant-sync-runs.types.ts";

export const listTenantSyncRuns = adminProcedure
  .meta(listTenantSyncRunsMeta)
  .input(ZListTenantSyncRunsRequestSchema)
  .output(ZListTenantSyncRunsResponseSchema)
  .query(({ ctx, input }) => {
    const { tenant_id, id, ...page } = input;
    return listSyncRunsForAdmin(ctx.deps, auditContextOf(ctx.principal, ctx.requestId), tenant_id, id, page);
  });
