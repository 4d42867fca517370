import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZPipeline } from "./pipeline.schema.ts";

export const getPipelineMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/pipeline",
    tags: ["pipeline"],
    summary: "Get the tenant's pipeline",
    description: "Counts of the tenant's users, sources, pulls, normalization, storage and webhook deliveries, taken now. Never a health value.",
    errorResponses: { 401: "Missing, wrong or expired secret", 403: "Not a tenant API key" },
  },
};

export const ZGetPipelineRequestSchema = z.object({});

export const ZGetPipelineResponseSchema = ZPipeline;
