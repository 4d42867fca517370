import { getSyncRun as getSyncRunService } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { getSyncRunMeta, ZGetSyncRunRequestSchema, ZGetSyncRunResponseSchema } from "./get-sync-run.types.ts";

export const getSyncRun = tenantProcedure
  .meta(getSyncRunMeta)
  .input(ZGetSyncRunRequestSchema)
  .output(ZGetSyncRunResponseSchema)
  .query(({ ctx, input }) => getSyncRunService(ctx.deps.db, ctx.principal.tenantId, input.id, input.run_id));
