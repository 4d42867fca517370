import { getShare as getShareService } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { getShareMeta, ZGetShareRequestSchema, ZGetShareResponseSchema } from "./get-share.types.ts";

export const getShare = tenantProcedure
  .meta(getShareMeta)
  .input(ZGetShareRequestSchema)
  .output(ZGetShareResponseSchema)
  .query(({ ctx, input }) => getShareService(ctx.deps.db, ctx.principal.tenantId, input.id, input.share_id));
