import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZId } from "../../schemas/common.ts";

export const getResolvedSourceOrderMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/users/{id}/source-ranking",
    tags: ["source orders"],
    summary: "The order of sources the merged view uses for a metric",
    description: "The user's orders for the metric, its group and `*`, then the built-in order of the group, combined: the merged view ranks sources in this order; unlisted sources come after it.",
    errorResponses: { 400: "Unknown metric", 401: "Missing, wrong or expired secret", 403: "Not a tenant API key", 404: "No such user in the tenant" },
  },
};

export const ZGetResolvedSourceOrderRequestSchema = z.object({
  id: ZId("user"),
  metric: z.string().min(1).max(64).describe("A metric, e.g. `heart_rate`, `sleep_session`, `workout`, `daily_summary`."),
});

export const ZGetResolvedSourceOrderResponseSchema = z.object({
  metric: z.string(),
  group: z.string(),
  sources: z.array(z.string()).describe("Most preferred first."),
});
