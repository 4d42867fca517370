import { startConnection as startConnectionService } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { startConnectionMeta, ZStartConnectionRequestSchema, ZStartConnectionResponseSchema } from "./start-connection.types.ts";

export const startConnection = tenantProcedure
  .meta(startConnectionMeta)
  .input(ZStartConnectionRequestSchema)
  .output(ZStartConnectionResponseSchema)
  .mutation(({ ctx, input }) => startConnectionService(ctx.deps, ctx.principal.tenantId, input.id, input.provider, input.redirect_uri));
