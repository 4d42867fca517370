import { getResolvedSourceOrder as resolve, requireActiveUser } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import {
  getResolvedSourceOrderMeta,
  ZGetResolvedSourceOrderRequestSchema,
  ZGetResolvedSourceOrderResponseSchema,
} from "./get-resolved-source-order.types.ts";

export const getResolvedSourceOrder = tenantProcedure
  .meta(getResolvedSourceOrderMeta)
  .input(ZGetResolvedSourceOrderRequestSchema)
  .output(ZGetResolvedSourceOrderResponseSchema)
  .query(async ({ ctx, input }) => {
    const user = await requireActiveUser(ctx.deps.db, ctx.principal.tenantId, input.id);
    return resolve(ctx.deps.db, user.id, input.metric);
  });
