import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZCursor, ZLimit, ZPage } from "../../schemas/common.ts";
import { readErrors, ZUserPath, ZWindowEnd, ZWindowStart } from "../../schemas/records.ts";
import { ZRrInterval } from "./heartbeat.schema.ts";

export const listRrIntervalsMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/users/{id}/rr-intervals",
    tags: ["records"],
    summary: "List beat-to-beat (RR) intervals",
    description:
      "RR intervals of the user's heartbeat series ordered by the time of the beat that ends each, oldest first; the window applies to that time. Each carries the provenance of its series.",
    errorResponses: { ...readErrors, 400: "Invalid series id, window, limit or cursor" },
  },
};

export const ZListRrIntervalsRequestSchema = z.object({
  ...ZUserPath,
  series_id: z.uuid().describe("Only the intervals of this heartbeat series (an unknown id gives an empty list).").optional(),
  start: ZWindowStart,
  end: ZWindowEnd,
  cursor: ZCursor,
  limit: ZLimit,
});

export const ZListRrIntervalsResponseSchema = ZPage(ZRrInterval);
