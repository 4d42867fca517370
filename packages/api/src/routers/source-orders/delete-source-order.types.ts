import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZId } from "../../schemas/common.ts";
import { ZScope } from "./source-order.schema.ts";

export const deleteSourceOrderMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "DELETE",
    path: "/v1/users/{id}/source-orders/{scope}",
    tags: ["source orders"],
    summary: "Remove the user's order of sources for a scope",
    description: "The next less specific order (then the built-in one) applies again.",
    errorResponses: { 400: "Unknown scope", 401: "Missing, wrong or expired secret", 403: "Not a tenant API key", 404: "No such user, or no order set for the scope" },
  },
  successStatus: 204,
};

export const ZDeleteSourceOrderRequestSchema = z.object({ id: ZId("user"), scope: ZScope });

export const ZDeleteSourceOrderResponseSchema = z.void();
