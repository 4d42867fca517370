import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZTagPath } from "./time-tag.schema.ts";

export const deleteTagMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "DELETE",
    path: "/v1/users/{id}/tags/{tag_id}",
    tags: ["tags"],
    summary: "Delete a time tag",
    description: "Removes the tag and sends tag.deleted.",
    errorResponses: {
      400: "id or tag_id is not a uuid",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such user in the tenant, the user is being deleted, or no such tag of the user",
    },
  },
  successStatus: 204,
};

export const ZDeleteTagRequestSchema = z.object(ZTagPath);

export const ZDeleteTagResponseSchema = z.void();
