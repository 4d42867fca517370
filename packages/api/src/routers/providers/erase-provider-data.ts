import { requestProviderErasure } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { eraseProviderDataMeta, ZEraseProviderDataRequestSchema, ZEraseProviderDataResponseSchema } from "./erase-provider-data.types.ts";

export const eraseProviderData = tenantProcedure
  .meta(eraseProviderDataMeta)
  .input(ZEraseProviderDataRequestSchema)
  .output(ZEraseProviderDataResponseSchema)
  .mutation(async ({ ctx, input }) => {
    ctx.response.status = 202;
    return requestProviderErasure(ctx.deps, ctx.principal.tenantId, input.id, input.provider);
  });
