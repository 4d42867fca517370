import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZCursor, ZLimit, ZPage } from "../../schemas/common.ts";
import { readErrors, ZUserPath, ZView, ZWindowEnd, ZWindowStart } from "../../schemas/records.ts";
import { ZQuantitySample } from "./sample.schema.ts";

export const listSamplesMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/users/{id}/samples",
    tags: ["records"],
    summary: "List quantity samples of one type",
    description:
      "Samples of one quantity type ordered by start_date, oldest first. In the merged view (default) a sample is left out when a better ranked source has a matching sample, and each kept sample lists in `outranked` the sources it was preferred to.",
    errorResponses: { ...readErrors, 400: "type not in the catalog (and the user has none), invalid window, limit or cursor" },
  },
};

export const ZListSamplesRequestSchema = z.object({
  ...ZUserPath,
  type: z.string().min(1).max(64).describe("A quantity type of the catalog, e.g. `heart_rate`."),
  start: ZWindowStart,
  end: ZWindowEnd,
  view: ZView,
  cursor: ZCursor,
  limit: ZLimit,
});

export const ZListSamplesResponseSchema = ZPage(ZQuantitySample);
