import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZId } from "../../schemas/common.ts";

export const deleteUserMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "DELETE",
    path: "/v1/users/{id}",
    tags: ["users"],
    summary: "Delete a user and all their data",
    description:
      "The user turns deleting at once (reads 404, tokens stop working); a background job deletes every row and raw file of the user. Follow it at GET /v1/deletions/{job_id}. user.deleted is sent when it is done.",
    errorResponses: {
      400: "id is not a uuid",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such user in the tenant, or already being deleted",
    },
  },
  successStatus: 202,
};

export const ZDeleteUserRequestSchema = z.object({ id: ZId("user") });

export const ZDeleteUserResponseSchema = z.object({
  job_id: z.uuid().describe("The deletion job; see GET /v1/deletions/{job_id}."),
});
