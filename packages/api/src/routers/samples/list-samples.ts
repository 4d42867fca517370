import { listSamples as listSamplesService, requireReadableUser } from "@svc/core";
import { readerProcedure } from "../../middlewares/authenticate.ts";
import { listSamplesMeta, ZListSamplesRequestSchema, ZListSamplesResponseSchema } from "./list-samples.types.ts";

export const listSamples = readerProcedure
  .meta(listSamplesMeta)
  .input(ZListSamplesRequestSchema)
  .output(ZListSamplesResponseSchema)
  .query(async ({ ctx, input }) => {
    const user = await requireReadableUser(ctx.deps.db, ctx.principal, input.id);
    return listSamplesService(ctx.deps.db, user.id, input);
  });
