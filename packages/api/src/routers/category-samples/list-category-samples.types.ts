import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZCursor, ZLimit, ZPage } from "../../schemas/common.ts";
import { readErrors, ZUserPath, ZView, ZWindowEnd, ZWindowStart } from "../../schemas/records.ts";
import { ZCategorySample } from "./category-sample.schema.ts";

export const listCategorySamplesMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/users/{id}/category-samples",
    tags: ["records"],
    summary: "List category samples",
    description:
      "Category samples (a value from a fixed set: menstrual flow, symptoms, events) of one type or of every type, ordered by start_date, oldest first. In the merged view (default) samples of one type match when their intervals overlap; the sample of the better ranked source for that type is kept and lists in `outranked` the sources it was preferred to.",
    errorResponses: { ...readErrors, 400: "Invalid type, window, view, limit or cursor" },
  },
};

export const ZListCategorySamplesRequestSchema = z.object({
  ...ZUserPath,
  type: z
    .string()
    .regex(/^[a-z][a-z0-9_]{0,63}$/, "type must be a snake_case name of at most 64 characters")
    .describe("Only samples of this category type, e.g. `menstrual_flow`; omit for every type.")
    .optional(),
  start: ZWindowStart,
  end: ZWindowEnd,
  view: ZView,
  cursor: ZCursor,
  limit: ZLimit,
});

export const ZListCategorySamplesResponseSchema = ZPage(ZCategorySample);
