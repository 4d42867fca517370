import { getFreshness as getFreshnessService } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { getFreshnessMeta, ZGetFreshnessRequestSchema, ZGetFreshnessResponseSchema } from "./get-freshness.types.ts";

export const getFreshness = tenantProcedure
  .meta(getFreshnessMeta)
  .input(ZGetFreshnessRequestSchema)
  .output(ZGetFreshnessResponseSchema)
  .query(({ ctx, input }) => getFreshnessService(ctx.deps, ctx.principal.tenantId, input.id));
