import { requireUploadableUser, writeSelfReports } from "@svc/core";
import { idempotent } from "../../idempotent.ts";
import { uploaderProcedure } from "../../middlewares/authenticate.ts";
import {
  createSelfReportsMeta,
  ZCreateSelfReportsRequestSchema,
  ZCreateSelfReportsResponseSchema,
} from "./create-self-reports.types.ts";

export const createSelfReports = uploaderProcedure
  .meta(createSelfReportsMeta)
  .input(ZCreateSelfReportsRequestSchema)
  .output(ZCreateSelfReportsResponseSchema)
  .mutation(async ({ ctx, input }) => {
    const user = await requireUploadableUser(ctx.deps.db, ctx.principal, input.id);
    return idempotent(ctx, "POST /v1/users/{id}/self-reports", input, async () => {
      const answer = await writeSelfReports(ctx.deps, user, input.reports);
      return { status: 202, body: answer, userId: user.id };
    });
  });
