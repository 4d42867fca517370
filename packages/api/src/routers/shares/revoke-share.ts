import { revokeShare as revokeShareService } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { revokeShareMeta, ZRevokeShareRequestSchema, ZRevokeShareResponseSchema } from "./revoke-share.types.ts";

export const revokeShare = tenantProcedure
  .meta(revokeShareMeta)
  .input(ZRevokeShareRequestSchema)
  .output(ZRevokeShareResponseSchema)
  .mutation(({ ctx, input }) => revokeShareService(ctx.deps, ctx.principal.tenantId, input.id, input.share_id));
