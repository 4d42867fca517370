import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZId } from "../../schemas/common.ts";
import { ZGetDeletionResponseSchema } from "../deletions/get-deletion.types.ts";

export const eraseProviderDataMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "DELETE",
    path: "/v1/users/{id}/data/{provider}",
    tags: ["users"],
    summary: "Erase a user's data of one provider",
    description:
      "A background job deletes every record, raw file, rejected record and tombstone of the user and provider; the user, other providers and the order of sources stay. Until it is done, uploads and self reports of the user for that provider answer 409. Repeated while the job is pending or running, the answer is that same job. Follow it at GET /v1/deletions/{job_id}; data.erased is sent when it is done.",
    errorResponses: {
      400: "id is not a uuid",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such user in the tenant (or being deleted), or a provider unknown to this build",
      409: "The user is still connected to the provider",
    },
  },
  successStatus: 202,
};

export const ZEraseProviderDataRequestSchema = z.object({
  id: ZId("user"),
  provider: z.string().min(1).max(64).describe("The provider's slug, as GET /v1/providers lists it."),
});

export const ZEraseProviderDataResponseSchema = ZGetDeletionResponseSchema;
