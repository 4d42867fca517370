import { listCategorySamples as listCategorySamplesService, requireReadableUser } from "@svc/core";
import { readerProcedure } from "../../middlewares/authenticate.ts";
import { listCategorySamplesMeta, ZListCategorySamplesRequestSchema, ZListCategorySamplesResponseSchema } from "./list-category-samples.types.ts";

export const listCategorySamples = readerProcedure
  .meta(listCategorySamplesMeta)
  .input(ZListCategorySamplesRequestSchema)
  .output(ZListCategorySamplesResponseSchema)
  .query(async ({ ctx, input }) => {
    const user = await requireReadableUser(ctx.deps.db, ctx.principal, input.id);
    return listCategorySamplesService(ctx.deps.db, user.id, input);
  });
