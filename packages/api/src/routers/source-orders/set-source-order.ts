import { requireActiveUser, setSourceOrder as setSourceOrderService } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { setSourceOrderMeta, ZSetSourceOrderRequestSchema, ZSetSourceOrderResponseSchema } from "./set-source-order.types.ts";

export const setSourceOrder = tenantProcedure
  .meta(setSourceOrderMeta)
  .input(ZSetSourceOrderRequestSchema)
  .output(ZSetSourceOrderResponseSchema)
  .mutation(async ({ ctx, input }) => {
    const user = await requireActiveUser(ctx.deps.db, ctx.principal.tenantId, input.id);
    return setSourceOrderService(ctx.deps.db, user.id, input.scope, input.sources);
  });
