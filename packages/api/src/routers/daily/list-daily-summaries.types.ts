import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZCursor, ZLimit, ZPage } from "../../schemas/common.ts";
import { readErrors, ZUserPath, ZView } from "../../schemas/records.ts";
import { ZDailySummary } from "./daily-summary.schema.ts";

export const listDailySummariesMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/users/{id}/daily",
    tags: ["records"],
    summary: "List daily summaries",
    description:
      "One summary per provider and local day, ordered by date, then id. Where a provider sends no daily summary for a day, svc derives one (`derived: true`) from its step, energy and distance samples. In the merged view (default) one summary per date is kept, that of the best ranked source for the metric `daily_summary` (group activity), listing in `outranked` the sources it was preferred to; `all` returns every provider's.",
    errorResponses: { ...readErrors, 400: "Invalid window, view, limit or cursor" },
  },
};

const dateBound = (which: string) =>
  z
    .string()
    .max(64)
    .describe(
      `${which} of the half-open window of dates start <= date < end: a YYYY-MM-DD date, or an RFC 3339 time of which the date part (as written) is used.`,
    )
    .optional();

export const ZListDailySummariesRequestSchema = z.object({
  ...ZUserPath,
  start: dateBound("Start"),
  end: dateBound("End"),
  view: ZView,
  cursor: ZCursor,
  limit: ZLimit,
});

export const ZListDailySummariesResponseSchema = ZPage(ZDailySummary);
