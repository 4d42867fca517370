import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZCursor, ZId, ZLimit, ZPage } from "../../schemas/common.ts";
import { ZSyncRun } from "./sync-run.schema.ts";

export const listSyncRunsMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/users/{id}/sync-runs",
    tags: ["connections"],
    summary: "List a user's sync runs",
    description: "The history of the user's pulls, every provider, oldest first, with the provider's error on failure.",
    errorResponses: {
      400: "id is not a uuid, or an invalid limit or cursor",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such user in the tenant",
    },
  },
};

export const ZListSyncRunsRequestSchema = z.object({ id: ZId("user"), cursor: ZCursor, limit: ZLimit });

export const ZListSyncRunsResponseSchema = ZPage(ZSyncRun);
