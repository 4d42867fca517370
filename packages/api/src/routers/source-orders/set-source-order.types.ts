import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZId } from "../../schemas/common.ts";
import { ZScope, ZSourceOrder, ZSources } from "./source-order.schema.ts";

export const setSourceOrderMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "PUT",
    path: "/v1/users/{id}/source-orders/{scope}",
    tags: ["source orders"],
    summary: "Set the user's order of sources for a metric, a group or every metric",
    description:
      "Replaces the order for the scope. Sources missing from an order rank after every listed one and are then placed by the next less specific order. Takes effect on the next read.",
    errorResponses: { 400: "Unknown scope, or sources not a list of distinct slugs", 401: "Missing, wrong or expired secret", 403: "Not a tenant API key", 404: "No such user in the tenant" },
  },
};

export const ZSetSourceOrderRequestSchema = z.object({ id: ZId("user"), scope: ZScope, sources: ZSources });

export const ZSetSourceOrderResponseSchema = ZSourceOrder;
