import { deleteTimeTag } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { deleteTagMeta, ZDeleteTagRequestSchema, ZDeleteTagResponseSchema } from "./delete-tag.types.ts";

export const deleteTag = tenantProcedure
  .meta(deleteTagMeta)
  .input(ZDeleteTagRequestSchema)
  .output(ZDeleteTagResponseSchema)
  .mutation(async ({ ctx, input }) => {
    await deleteTimeTag(ctx.deps, ctx.principal.tenantId, input.id, input.tag_id);
    ctx.response.status = 204;
  });
