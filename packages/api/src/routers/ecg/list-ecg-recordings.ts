import { listEcgRecordings as listEcgRecordingsService, requireReadableUser } from "@svc/core";
import { readerProcedure } from "../../middlewares/authenticate.ts";
import { listEcgRecordingsMeta, ZListEcgRecordingsRequestSchema, ZListEcgRecordingsResponseSchema } from "./list-ecg-recordings.types.ts";

export const listEcgRecordings = readerProcedure
  .meta(listEcgRecordingsMeta)
  .input(ZListEcgRecordingsRequestSchema)
  .output(ZListEcgRecordingsResponseSchema)
  .query(async ({ ctx, input }) => {
    const user = await requireReadableUser(ctx.deps.db, ctx.principal, input.id);
    return listEcgRecordingsService(ctx.deps.db, user.id, input);
  });
