import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZCursor, ZLimit, ZPage } from "../../schemas/common.ts";
import { readErrors, ZUserPath, ZWindowEnd, ZWindowStart } from "../../schemas/records.ts";
import { ZHrvResult } from "./heartbeat.schema.ts";

export const listHrvMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/users/{id}/hrv",
    tags: ["records"],
    summary: "List heart rate variability per heartbeat series",
    description:
      "HRV computed from each heartbeat series, ordered by the series' first beat, oldest first; the window applies to the first beat. An RR interval counts when it is 250 to 2500 ms and not preceded by a gap; other intervals stay listed under rr-intervals but no figure uses them.",
    errorResponses: { ...readErrors, 400: "Invalid series id, window, limit or cursor" },
  },
};

export const ZListHrvRequestSchema = z.object({
  ...ZUserPath,
  series_id: z.uuid().describe("Only the HRV of this heartbeat series (an unknown id gives an empty list).").optional(),
  start: ZWindowStart,
  end: ZWindowEnd,
  cursor: ZCursor,
  limit: ZLimit,
});

export const ZListHrvResponseSchema = ZPage(ZHrvResult);
