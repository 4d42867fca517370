import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZShare, ZSharePath } from "./share.schema.ts";

export const getShareMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/users/{id}/shares/{share_id}",
    tags: ["shares"],
    summary: "Get a share link",
    description: "One share link as listed, whatever its status. The link, its key and the passcode are never shown.",
    errorResponses: {
      400: "id or share_id is not a uuid",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such user in the tenant, the user is being deleted, or no such share of the user",
    },
  },
};

export const ZGetShareRequestSchema = z.object(ZSharePath);

export const ZGetShareResponseSchema = ZShare;
