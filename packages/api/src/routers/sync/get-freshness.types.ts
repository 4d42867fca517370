import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZId } from "../../schemas/common.ts";
import { ZFreshness } from "./sync-run.schema.ts";

export const getFreshnessMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/users/{id}/freshness",
    tags: ["connections"],
    summary: "Get the freshness of a user's sources",
    description:
      "One entry per source of the user: each connection (any status), then each device provider the user uploaded to (Apple Health and other uploads). Not paged.",
    errorResponses: {
      400: "id is not a uuid",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such user in the tenant",
    },
  },
};

export const ZGetFreshnessRequestSchema = z.object({ id: ZId("user") });

export const ZGetFreshnessResponseSchema = z.object({ data: z.array(ZFreshness) });
