import { getUploadStatus } from "@svc/core";
import { uploaderProcedure } from "../../middlewares/authenticate.ts";
import { getUploadMeta, ZGetUploadRequestSchema, ZGetUploadResponseSchema } from "./get-upload.types.ts";

export const getUpload = uploaderProcedure
  .meta(getUploadMeta)
  .input(ZGetUploadRequestSchema)
  .output(ZGetUploadResponseSchema)
  .query(({ ctx, input }) => getUploadStatus(ctx.deps, ctx.principal, input.upload_id));
