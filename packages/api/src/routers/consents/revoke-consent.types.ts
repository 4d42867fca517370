import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZConsentCategories, ZConsentDeletionJob, ZConsentPath, ZSourceConsent } from "./consent.schema.ts";

export const revokeConsentMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "POST",
    path: "/v1/users/{id}/consents/{provider}/revoke",
    tags: ["consents"],
    summary: "Revoke categories of a source",
    description:
      "Revokes the categories of the source: uploads and pulls of them are no longer stored (skipped, not rejected; self reports answer 409), a background job deletes their stored records from this source (other sources and categories stay; raw payloads stay), and the user's share links holding them are revoked with reason `consent`. Sends consent.revoked naming the categories that were granted. Repeated, the answer is the newest job of those categories (the same job while it runs). Follow the job at GET /v1/deletions/{job_id}.",
    errorResponses: {
      400: "id is not a uuid, or categories is empty or names an unknown category",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such user in the tenant (or being deleted), or a provider unknown to this build",
    },
  },
  successStatus: 202,
};

export const ZRevokeConsentRequestSchema = z.strictObject({ ...ZConsentPath, categories: ZConsentCategories });

export const ZRevokeConsentResponseSchema = z.object({ consent: ZSourceConsent, job: ZConsentDeletionJob });
