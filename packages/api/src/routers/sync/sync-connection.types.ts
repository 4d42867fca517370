import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZConnectionPath, ZSyncRun } from "./sync-run.schema.ts";

export const syncConnectionMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "POST",
    path: "/v1/users/{id}/connections/{provider}/sync",
    tags: ["connections"],
    summary: "Sync now",
    description:
      "Queues a pull of the connection ahead of routine work and answers 202 with the new sync run; follow it at the Location header. The window ends now and starts where the connection's data ends minus an hour of overlap (a day back when it never synced; never more than 30 days back), or at `from` (at most 30 days back). While a manual run of the connection is open (queued, running, retrying or rate_limited), the answer is 200 with that run and nothing new is queued.",
    responseHeaders: z.object({ Location: z.string().describe("/v1/users/{id}/sync-runs/{run_id} of the run.") }),
    errorResponses: {
      400: "id is not a uuid; from is not a date-time, in the future, or more than 30 days back",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such user in the tenant, or the user has no connection of the provider",
      409: "The connection does not sync (needs_reauth or disconnected), the provider is not enabled on the instance, or an admin switched it off for the tenant",
    },
  },
  successStatus: 202,
  alsoSucceeds: { status: 200, description: "A manual run of the connection is already open: that run, nothing new queued.", sameBody: true },
};

export const ZSyncConnectionRequestSchema = z.object({
  ...ZConnectionPath,
  from: z.iso.datetime({ offset: true }).optional().describe("Start of the window (RFC 3339), at most 30 days back. Default: where the connection's data ends minus an hour, or a day back."),
});

export const ZSyncConnectionResponseSchema = ZSyncRun;
