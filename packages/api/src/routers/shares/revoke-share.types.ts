import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZShare, ZSharePath } from "./share.schema.ts";

export const revokeShareMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "POST",
    path: "/v1/users/{id}/shares/{share_id}/revoke",
    tags: ["shares"],
    summary: "Revoke a share link",
    description:
      "Stops the link now (status revoked, revoked_reason owner): its encrypted file is deleted and opening it answers 404. Sends share.revoked. Revoking a share already revoked answers it as it is, without an event.",
    errorResponses: {
      400: "id or share_id is not a uuid",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such user in the tenant, the user is being deleted, or no such share of the user",
    },
  },
};

export const ZRevokeShareRequestSchema = z.object(ZSharePath);

export const ZRevokeShareResponseSchema = ZShare;
