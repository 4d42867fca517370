import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZUserPath } from "../../schemas/records.ts";
import { ZProviderSlug, ZRedirectUri } from "./connection.schema.ts";

export const startConnectionMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "POST",
    path: "/v1/users/{id}/connections/{provider}",
    tags: ["connections"],
    summary: "Start connecting a user to a provider",
    description:
      "Answers the provider's authorize URL to open in the user's browser (state and, where the provider takes it, PKCE S256). The consent it starts is single use and expires after 10 minutes. After consent the provider calls GET /oauth/{provider}/callback, which connects the user, queues the initial backfill and redirects to redirect_uri (or shows a result page). Connecting again replaces the grant.",
    errorResponses: {
      400: "Invalid body (redirect_uri not https, not absolute...), or a device provider (nothing to connect: its data is uploaded)",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key, or the provider is switched off for the tenant",
      404: "No such user in the tenant (or being deleted), or a provider unknown to this build",
      409: "The user's data of the provider is being erased, or the provider has no working keys for the tenant on this instance",
    },
  },
};

export const ZStartConnectionRequestSchema = z.strictObject({
  ...ZUserPath,
  provider: ZProviderSlug,
  redirect_uri: ZRedirectUri.optional(),
});

export const ZStartConnectionResponseSchema = z.object({
  authorize_url: z.url().describe("The provider's consent page for this user; open it in the user's browser."),
});
