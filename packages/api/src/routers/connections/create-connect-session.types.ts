import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { CONNECT_SESSION_DEFAULT_SECONDS, CONNECT_SESSION_MAX_SECONDS, CONNECT_SESSION_MIN_SECONDS } from "@svc/core";
import type { SvcMeta } from "../../trpc.ts";
import { ZDateTime } from "../../schemas/common.ts";
import { ZUserPath } from "../../schemas/records.ts";
import { ZRedirectUri } from "./connection.schema.ts";

export const createConnectSessionMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "POST",
    path: "/v1/users/{id}/connect-sessions",
    tags: ["connections"],
    summary: "Create a link to the hosted connect page of a user",
    description:
      "Answers a link to a page served by this instance that lists the OAuth and push providers available to the tenant with the user's status (connected, needs reconnecting, not connected) and a Connect or Reconnect button for each, which starts the same consent as POST /v1/users/{id}/connections/{provider}. The link is a bearer capability for the user's consent: hand it only to the user. It works until expires_at, as often as needed; it is shown once (only its hash is kept).",
    responseHeaders: z.object({ "Cache-Control": z.literal("no-store") }),
    errorResponses: {
      400: "Invalid body (redirect_uri not https, expires_in_seconds out of range...)",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such user in the tenant, or the user is being deleted",
    },
  },
  successStatus: 201,
};

export const ZCreateConnectSessionRequestSchema = z.strictObject({
  ...ZUserPath,
  redirect_uri: ZRedirectUri.optional(),
  expires_in_seconds: z
    .number()
    .int()
    .min(CONNECT_SESSION_MIN_SECONDS)
    .max(CONNECT_SESSION_MAX_SECONDS)
    .optional()
    .describe(`How long the link works, ${CONNECT_SESSION_MIN_SECONDS} to ${CONNECT_SESSION_MAX_SECONDS} seconds (default ${CONNECT_SESSION_DEFAULT_SECONDS}).`),
});

export const ZCreateConnectSessionResponseSchema = z.object({
  url: z.url().describe("The hosted connect page: {public_url}/connect/{token}. Shown only in this answer."),
  expires_at: ZDateTime.describe("When the link stops working."),
});
