import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZId } from "../../schemas/common.ts";
import { readErrors, ZUserPath } from "../../schemas/records.ts";
import { ZEcgRecordingWithVoltages } from "./ecg.schema.ts";

export const getEcgRecordingMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/users/{id}/ecg/{ecg_id}",
    tags: ["records"],
    summary: "Get one ECG recording with its voltages",
    description: "The recording's metadata and all its voltage samples in microvolts; not paged.",
    errorResponses: {
      ...readErrors,
      400: "Invalid recording id",
      404: "No such user in the tenant (or not the token's user), no such ECG recording of the user, or the user is being deleted",
    },
  },
};

export const ZGetEcgRecordingRequestSchema = z.object({
  ...ZUserPath,
  ecg_id: ZId("ECG recording"),
});

export const ZGetEcgRecordingResponseSchema = ZEcgRecordingWithVoltages;
