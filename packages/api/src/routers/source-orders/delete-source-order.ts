import { removeSourceOrder, requireActiveUser } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { deleteSourceOrderMeta, ZDeleteSourceOrderRequestSchema, ZDeleteSourceOrderResponseSchema } from "./delete-source-order.types.ts";

export const deleteSourceOrder = tenantProcedure
  .meta(deleteSourceOrderMeta)
  .input(ZDeleteSourceOrderRequestSchema)
  .output(ZDeleteSourceOrderResponseSchema)
  .mutation(async ({ ctx, input }) => {
    const user = await requireActiveUser(ctx.deps.db, ctx.principal.tenantId, input.id);
    await removeSourceOrder(ctx.deps.db, user.id, input.scope);
    ctx.response.status = 204;
  });
