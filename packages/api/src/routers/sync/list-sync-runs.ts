import { listSyncRuns as listSyncRunsService } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { listSyncRunsMeta, ZListSyncRunsRequestSchema, ZListSyncRunsResponseSchema } from "./list-sync-runs.types.ts";

export const listSyncRuns = tenantProcedure
  .meta(listSyncRunsMeta)
  .input(ZListSyncRunsRequestSchema)
  .output(ZListSyncRunsResponseSchema)
  .query(({ ctx, input }) => {
    const { id, ...page } = input;
    return listSyncRunsService(ctx.deps.db, ctx.principal.tenantId, id, page);
  });
