import { getEcgRecording as getEcgRecordingService, requireReadableUser } from "@svc/core";
import { readerProcedure } from "../../middlewares/authenticate.ts";
import { getEcgRecordingMeta, ZGetEcgRecordingRequestSchema, ZGetEcgRecordingResponseSchema } from "./get-ecg-recording.types.ts";

export const getEcgRecording = readerProcedure
  .meta(getEcgRecordingMeta)
  .input(ZGetEcgRecordingRequestSchema)
  .output(ZGetEcgRecordingResponseSchema)
  .query(async ({ ctx, input }) => {
    const user = await requireReadableUser(ctx.deps.db, ctx.principal, input.id);
    return getEcgRecordingService(ctx.deps.db, user.id, input.ecg_id);
  });
