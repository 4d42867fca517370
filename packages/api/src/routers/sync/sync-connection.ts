import { requestManualSync } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { syncConnectionMeta, ZSyncConnectionRequestSchema, ZSyncConnectionResponseSchema } from "./sync-connection.types.ts";

export const syncConnection = tenantProcedure
  .meta(syncConnectionMeta)
  .input(ZSyncConnectionRequestSchema)
  .output(ZSyncConnectionResponseSchema)
  .mutation(async ({ ctx, input }) => {
    const from = input.from === undefined ? undefined : new Date(input.from);
    const { run, created } = await requestManualSync(ctx.deps, ctx.principal.tenantId, input.id, input.provider, { from });
    ctx.response.status = created ? 202 : 200;
    ctx.response.headers.Location = `/v1/users/${input.id}/sync-runs/${run.id}`;
    return run;
  });
