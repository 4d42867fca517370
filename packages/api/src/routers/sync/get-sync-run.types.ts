import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZSyncRun, ZSyncRunPath } from "./sync-run.schema.ts";

export const getSyncRunMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/users/{id}/sync-runs/{run_id}",
    tags: ["connections"],
    summary: "Get a sync run",
    description: "One pull of the user's data, with its state and the provider's error on failure.",
    errorResponses: {
      400: "id is not a uuid, or run_id is not a positive integer",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such user in the tenant, or no such run of the user",
    },
  },
};

export const ZGetSyncRunRequestSchema = z.object(ZSyncRunPath);

export const ZGetSyncRunResponseSchema = ZSyncRun;
