import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZCursor, ZLimit, ZPage } from "../../schemas/common.ts";
import { readErrors, ZUserPath, ZWindowEnd, ZWindowStart } from "../../schemas/records.ts";
import { ZNutritionLog } from "./nutrition.schema.ts";

export const listNutritionMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/users/{id}/nutrition",
    tags: ["records"],
    summary: "List nutrition logs",
    description: "Meals and drinks of every provider ordered by start_date, oldest first; the window applies to start_date.",
    errorResponses: { ...readErrors, 400: "Invalid window, limit or cursor" },
  },
};

export const ZListNutritionRequestSchema = z.object({
  ...ZUserPath,
  start: ZWindowStart,
  end: ZWindowEnd,
  cursor: ZCursor,
  limit: ZLimit,
});

export const ZListNutritionResponseSchema = ZPage(ZNutritionLog);
