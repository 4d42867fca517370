import { listTimeTags } from "@svc/core";
import { tenantProcedure } from "../../middlewares/authenticate.ts";
import { listTagsMeta, ZListTagsRequestSchema, ZListTagsResponseSchema } from "./list-tags.types.ts";

export const listTags = tenantProcedure
  .meta(listTagsMeta)
  .input(ZListTagsRequestSchema)
  .output(ZListTagsResponseSchema)
  .query(({ ctx, input }) => listTimeTags(ctx.deps.db, ctx.principal.tenantId, input.id, input));
