import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { readErrors, ZUserPath, ZWindowEnd, ZWindowStart } from "../../schemas/records.ts";

export const getCoverageMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/users/{id}/coverage",
    tags: ["records"],
    summary: "Records per provider per day",
    description:
      "How many records of each kind every provider stored per UTC day (by the record's start; daily summaries by their date). Not paged: without start it covers the 30 days before end (end defaults to now); a window is at most 366 days.",
    errorResponses: { ...readErrors, 400: "Invalid window, or longer than 366 days" },
  },
};

export const ZGetCoverageRequestSchema = z.object({
  ...ZUserPath,
  provider: z.string().min(1).max(64).describe("Only this provider's records (its slug, as GET /v1/providers lists it).").optional(),
  start: ZWindowStart,
  end: ZWindowEnd,
});

const count = z.number().int().min(0);

export const ZCoverageDay = z.object({
  date: z.string().describe("UTC day, YYYY-MM-DD."),
  provider: z.string(),
  records: z
    .object({
      quantity_samples: count,
      category_samples: count,
      sleep_sessions: count,
      workouts: count,
      nutrition_logs: count,
      heartbeat_series: count,
      ecg_recordings: count,
      daily_summaries: count,
    })
    .describe("Records stored per kind."),
  total: count,
});

export const ZGetCoverageResponseSchema = z.object({
  start: z.iso.datetime().describe("Start of the window covered."),
  end: z.iso.datetime().describe("End of the window covered (exclusive)."),
  data: z.array(ZCoverageDay).describe("One entry per day and provider with records, ordered by day then provider."),
});
