import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZCursor, ZLimit, ZPage } from "../../schemas/common.ts";
import { readErrors, ZUserPath, ZWindowEnd, ZWindowStart } from "../../schemas/records.ts";
import { ZEcgRecording } from "./ecg.schema.ts";

export const listEcgRecordingsMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/users/{id}/ecg",
    tags: ["records"],
    summary: "List ECG recordings",
    description:
      "ECG recordings of every provider ordered by start_date, oldest first; the window applies to start_date. Metadata only: GET /v1/users/{id}/ecg/{ecg_id} returns one recording with its voltages.",
    errorResponses: { ...readErrors, 400: "Invalid window, limit or cursor" },
  },
};

export const ZListEcgRecordingsRequestSchema = z.object({
  ...ZUserPath,
  start: ZWindowStart,
  end: ZWindowEnd,
  cursor: ZCursor,
  limit: ZLimit,
});

export const ZListEcgRecordingsResponseSchema = ZPage(ZEcgRecording);
