import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZUserPath } from "../../schemas/records.ts";
import { ZSourceConsent } from "./consent.schema.ts";

export const listConsentsMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/users/{id}/consents",
    tags: ["consents"],
    summary: "List a user's consents per source",
    description:
      "One entry per source (provider slug) the user has a connection, an upload, a pull or self reports of, or a saved consent for, ordered by slug, each listing every data category and whether it is granted. A category is granted until it is revoked. One page: the answer has no next_cursor.",
    errorResponses: {
      400: "id is not a uuid",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such user in the tenant, or the user is being deleted",
    },
  },
};

export const ZListConsentsRequestSchema = z.object(ZUserPath);

export const ZListConsentsResponseSchema = z.object({ data: z.array(ZSourceConsent) });
