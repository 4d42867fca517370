import { createConnectSession as createConnectSessionService } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { createConnectSessionMeta, ZCreateConnectSessionRequestSchema, ZCreateConnectSessionResponseSchema } from "./create-connect-session.types.ts";

export const createConnectSession = tenantProcedure
  .meta(createConnectSessionMeta)
  .input(ZCreateConnectSessionRequestSchema)
  .output(ZCreateConnectSessionResponseSchema)
  .mutation(async ({ ctx, input }) => {
    ctx.response.status = 201;
    ctx.response.headers["Cache-Control"] = "no-store";
    const { id, ...request } = input;
    return createConnectSessionService(ctx.deps, ctx.principal.tenantId, id, request);
  });
