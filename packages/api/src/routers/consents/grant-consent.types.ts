import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZConsentCategories, ZConsentPath, ZSourceConsent } from "./consent.schema.ts";

export const grantConsentMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "POST",
    path: "/v1/users/{id}/consents/{provider}/grant",
    tags: ["consents"],
    summary: "Grant categories of a source",
    description:
      "Grants the categories of the source again: from now on uploads and pulls of them are stored (records skipped while they were revoked are not brought back). Sends consent.granted naming the categories that were revoked; granting what is granted changes and sends nothing.",
    errorResponses: {
      400: "id is not a uuid, or categories is empty or names an unknown category",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such user in the tenant (or being deleted), or a provider unknown to this build",
      409: "The stored records of a category asked for are still being deleted after its revocation",
    },
  },
};

export const ZGrantConsentRequestSchema = z.strictObject({ ...ZConsentPath, categories: ZConsentCategories });

export const ZGrantConsentResponseSchema = ZSourceConsent;
