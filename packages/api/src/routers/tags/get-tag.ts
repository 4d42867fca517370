import { getTimeTag } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { getTagMeta, ZGetTagRequestSchema, ZGetTagResponseSchema } from "./get-tag.types.ts";

export const getTag = tenantProcedure
  .meta(getTagMeta)
  .input(ZGetTagRequestSchema)
  .output(ZGetTagResponseSchema)
  .query(({ ctx, input }) => getTimeTag(ctx.deps.db, ctx.principal.tenantId, input.id, input.tag_id));
