import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZUserPath } from "../../schemas/records.ts";
import { ZGetDeletionResponseSchema } from "../deletions/get-deletion.types.ts";
import { ZProviderSlug } from "./connection.schema.ts";

export const disconnectConnectionMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "DELETE",
    path: "/v1/users/{id}/connections/{provider}",
    tags: ["connections"],
    summary: "Disconnect a user from a provider",
    description:
      "The connection turns disconnected at once: its tokens are dropped, pulls stop and open sync runs are cancelled; the grant is revoked and subscriptions at the provider removed, best effort, after the answer. Without delete_data (or false) the collected data stays: 204. With delete_data=true the user's data of the provider is erased afterwards, as DELETE /v1/users/{id}/data/{provider} does: 202 with the erasure job (data.erased when it is done). Again on a disconnected connection: 204, or the erasure.",
    errorResponses: {
      400: "id is not a uuid, or delete_data is not true or false",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such user in the tenant (or being deleted), or the user has no connection of the provider",
    },
  },
  successStatus: 202,
  alsoSucceeds: { status: 204, description: "Disconnected; the collected data is kept." },
};

export const ZDisconnectConnectionRequestSchema = z.object({
  ...ZUserPath,
  provider: ZProviderSlug,
  delete_data: z
    .enum(["true", "false"])
    .describe("true: erase the user's data of the provider after disconnecting (202 with the job); false or absent: keep it (204).")
    .optional(),
});

export const ZDisconnectConnectionResponseSchema = ZGetDeletionResponseSchema.optional();
