import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZTagEndAt, ZTagLabel, ZTagNote, ZTagPath, ZTagStartAt, ZTagTimezone, ZTimeTag, ZTimeTagKind } from "./time-tag.schema.ts";

export const updateTagMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "PATCH",
    path: "/v1/users/{id}/tags/{tag_id}",
    tags: ["tags"],
    summary: "Change a time tag",
    description:
      "Changes the fields sent; the others stay. end_at ends an ongoing tag; end_at null makes it ongoing again; note or timezone null clears it. Sends tag.updated when a value changed; a request that changes nothing answers the tag as it is and sends nothing.",
    errorResponses: {
      400: "Invalid body (unknown kind, label or note too long, end_at before start_at, unknown timezone)",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such user in the tenant, the user is being deleted, or no such tag of the user",
    },
  },
};

export const ZUpdateTagRequestSchema = z.strictObject({
  ...ZTagPath,
  kind: ZTimeTagKind.optional(),
  label: ZTagLabel.optional(),
  note: ZTagNote.nullable().optional(),
  start_at: ZTagStartAt.optional(),
  end_at: ZTagEndAt.nullable().optional(),
  timezone: ZTagTimezone.nullable().optional(),
});

export const ZUpdateTagResponseSchema = ZTimeTag;
