import { getCoverage as getCoverageService, requireReadableUser } from "@svc/core";
import { readerProcedure } from "../../middlewares/authenticate.ts";
import { getCoverageMeta, ZGetCoverageRequestSchema, ZGetCoverageResponseSchema } from "./get-coverage.types.ts";

export const getCoverage = readerProcedure
  .meta(getCoverageMeta)
  .input(ZGetCoverageRequestSchema)
  .output(ZGetCoverageResponseSchema)
  .query(async ({ ctx, input }) => {
    const user = await requireReadableUser(ctx.deps.db, ctx.principal, input.id);
    return getCoverageService(ctx.deps.db, user.id, input);
  });
