import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZDateTime, ZId } from "../../schemas/common.ts";

export const getDeletionMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/deletions/{job_id}",
    tags: ["deletions"],
    summary: "Follow a deletion job",
    errorResponses: {
      400: "job_id is not a uuid",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such deletion job in the tenant",
    },
  },
};

export const ZGetDeletionRequestSchema = z.object({ job_id: ZId("deletion job") });

export const ZGetDeletionResponseSchema = z.object({
  job_id: z.uuid(),
  user_id: z.uuid(),
  provider: z.string().nullable().describe("null for a user deletion; the provider slug for one provider's erasure."),
  status: z.enum(["pending", "running", "done", "failed"]),
  created_at: ZDateTime,
  finished_at: ZDateTime.nullable().describe("null until the job ends."),
});
