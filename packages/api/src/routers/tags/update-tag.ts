import { updateTimeTag } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { updateTagMeta, ZUpdateTagRequestSchema, ZUpdateTagResponseSchema } from "./update-tag.types.ts";

export const updateTag = tenantProcedure
  .meta(updateTagMeta)
  .input(ZUpdateTagRequestSchema)
  .output(ZUpdateTagResponseSchema)
  .mutation(({ ctx, input }) => {
    const { id, tag_id, ...patch } = input;
    return updateTimeTag(ctx.deps, ctx.principal.tenantId, id, tag_id, patch);
  });
