import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZCursor, ZLimit, ZPage } from "../../schemas/common.ts";
import { readErrors, ZUserPath, ZView, ZWindowEnd, ZWindowStart } from "../../schemas/records.ts";
import { ZSleepSession } from "./sleep.schema.ts";

export const listSleepSessionsMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/users/{id}/sleep",
    tags: ["records"],
    summary: "List sleep sessions",
    description:
      "Sleep sessions and naps ordered by bedtime_start, oldest first; the window applies to bedtime_start. In the merged view (default) two sessions match when they share at least half of the shorter one; the session of the better ranked source (metric `sleep_session`) is kept and lists in `outranked` the sources it was preferred to.",
    errorResponses: { ...readErrors, 400: "Invalid window, view, limit or cursor" },
  },
};

export const ZListSleepSessionsRequestSchema = z.object({
  ...ZUserPath,
  start: ZWindowStart,
  end: ZWindowEnd,
  view: ZView,
  cursor: ZCursor,
  limit: ZLimit,
});

export const ZListSleepSessionsResponseSchema = ZPage(ZSleepSession);
