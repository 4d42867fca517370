import { getSourceOrders, requireActiveUser } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { listSourceOrdersMeta, ZListSourceOrdersRequestSchema, ZListSourceOrdersResponseSchema } from "./list-source-orders.types.ts";

export const listSourceOrders = tenantProcedure
  .meta(listSourceOrdersMeta)
  .input(ZListSourceOrdersRequestSchema)
  .output(ZListSourceOrdersResponseSchema)
  .query(async ({ ctx, input }) => {
    const user = await requireActiveUser(ctx.deps.db, ctx.principal.tenantId, input.id);
    return getSourceOrders(ctx.deps.db, user.id);
  });
