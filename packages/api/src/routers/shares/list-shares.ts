import { listShares as listSharesService } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { listSharesMeta, ZListSharesRequestSchema, ZListSharesResponseSchema } from "./list-shares.types.ts";

export const listShares = tenantProcedure
  .meta(listSharesMeta)
  .input(ZListSharesRequestSchema)
  .output(ZListSharesResponseSchema)
  .query(({ ctx, input }) => listSharesService(ctx.deps.db, ctx.principal.tenantId, input.id, input));
