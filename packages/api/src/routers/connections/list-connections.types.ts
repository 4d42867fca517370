import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZUserPath } from "../../schemas/records.ts";
import { ZConnection } from "./connection.schema.ts";

export const listConnectionsMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/users/{id}/connections",
    tags: ["connections"],
    summary: "List a user's connections with their health",
    description:
      "One entry per provider the user ever connected (disconnected ones too, until their data is erased), oldest first. One page: the answer has no next_cursor.",
    errorResponses: {
      400: "id is not a uuid",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such user in the tenant, or the user is being deleted",
    },
  },
};

export const ZListConnectionsRequestSchema = z.object(ZUserPath);

export const ZListConnectionsResponseSchema = z.object({ data: z.array(ZConnection) });
