import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZTagPath, ZTimeTag } from "./time-tag.schema.ts";

export const getTagMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/users/{id}/tags/{tag_id}",
    tags: ["tags"],
    summary: "Get a time tag",
    errorResponses: {
      400: "id or tag_id is not a uuid",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such user in the tenant, the user is being deleted, or no such tag of the user",
    },
  },
};

export const ZGetTagRequestSchema = z.object(ZTagPath);

export const ZGetTagResponseSchema = ZTimeTag;
