import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { readErrors, ZUserPath, ZView } from "../../schemas/records.ts";

export const getSampleStatsMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/users/{id}/samples/stats",
    tags: ["records"],
    summary: "Statistics of one quantity type per hour or local day",
    description:
      "count, sum, avg, min and max per interval, one series per provider, source, device and unit (a phone and a watch stay separate). start and end are widened to whole intervals in tz; at most 10000 intervals. When more than 50000 samples match, `truncated` is true and the buckets hold the earliest 50000. Computed from the stored samples at request time, so data written for a past hour shows at once.",
    errorResponses: { ...readErrors, 400: "type not in the catalog, invalid tz, interval or window, or more than 10000 intervals" },
  },
};

const bound = (which: string) =>
  z.string().max(64).describe(`${which}: an RFC 3339 time or a YYYY-MM-DD date (midnight in tz); widened to a whole interval.`);

export const ZGetSampleStatsRequestSchema = z.object({
  ...ZUserPath,
  type: z.string().min(1).max(64).describe("A quantity type of the catalog, e.g. `step_count`."),
  start: bound("Start of the window (inclusive)"),
  end: bound("End of the window (exclusive)"),
  interval: z.enum(["hour", "day"]).default("day").describe("`hour` or `day` (default); a day runs from local midnight to local midnight in tz."),
  tz: z.string().min(1).max(64).default("UTC").describe("IANA time zone, e.g. `Europe/Berlin` (default `UTC`)."),
  provider: z.string().min(1).max(64).describe("Only this provider's samples (its slug, as GET /v1/providers lists it).").optional(),
  view: ZView,
});

export const ZBucket = z.object({
  start: z.string().describe("Start of the interval, RFC 3339 with the offset of tz."),
  provider: z.string(),
  source: z.string().describe("The vendor, or the provider when the vendor is unknown."),
  device: z.string().nullable().describe("The device of the series, when known: series of two devices stay separate."),
  unit: z.string(),
  count: z.number().int(),
  sum: z.number(),
  avg: z.number(),
  min: z.number(),
  max: z.number(),
});

export const ZGetSampleStatsResponseSchema = z.object({
  type: z.string(),
  interval: z.enum(["hour", "day"]),
  tz: z.string(),
  view: z.enum(["merged", "all"]),
  start: z.string().describe("The widened start, with the offset of tz."),
  end: z.string().describe("The widened end, with the offset of tz."),
  truncated: z.boolean().describe("True when more than 50000 samples matched; the buckets then hold the earliest 50000."),
  buckets: z.array(ZBucket).describe("Ordered by interval, then provider, source, device and unit; intervals without samples are left out."),
});
