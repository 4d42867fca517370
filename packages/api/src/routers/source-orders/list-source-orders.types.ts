import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZId } from "../../schemas/common.ts";
import { ZSourceOrder } from "./source-order.schema.ts";

export const listSourceOrdersMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/users/{id}/source-orders",
    tags: ["source orders"],
    summary: "List the user's orders of sources",
    description: "Every order of sources the user has set, by scope. The merged view ranks sources by the order for the metric, then its group, then `*`, then the built-in order of the group.",
    errorResponses: { 400: "id is not a uuid", 401: "Missing, wrong or expired secret", 403: "Not a tenant API key", 404: "No such user in the tenant" },
  },
};

export const ZListSourceOrdersRequestSchema = z.object({ id: ZId("user") });

export const ZListSourceOrdersResponseSchema = z.object({ data: z.array(ZSourceOrder) });
