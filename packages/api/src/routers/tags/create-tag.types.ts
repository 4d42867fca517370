import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import type { SvcMeta } from "../../trpc.ts";
import { ZUserPath } from "../../schemas/records.ts";
import { ZTagEndAt, ZTagLabel, ZTagNote, ZTagStartAt, ZTagTimezone, ZTimeTag, ZTimeTagKind } from "./time-tag.schema.ts";

export const createTagMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "POST",
    path: "/v1/users/{id}/tags",
    tags: ["tags"],
    summary: "Create a time tag",
    description:
      "Marks a time window of the user (an illness, travel, a race...), ongoing when end_at is left out. Sends tag.created. Send Idempotency-Key to make retries safe: the same key and request within 24 hours replays the first answer with Idempotent-Replayed: true.",
    requestHeaders: z.object({
      "Idempotency-Key": z.string().min(1).max(255).optional().describe("1 to 255 characters; replay window 24 hours."),
    }),
    errorResponses: {
      400: "Invalid body (unknown kind, label or note too long, end_at before start_at, unknown timezone) or Idempotency-Key",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key",
      404: "No such user in the tenant, or the user is being deleted",
      409: "The same Idempotency-Key is still being processed",
      422: "Idempotency-Key reused with a different request",
    },
  },
  successStatus: 201,
};

export const ZCreateTagRequestSchema = z.strictObject({
  ...ZUserPath,
  kind: ZTimeTagKind,
  label: ZTagLabel,
  note: ZTagNote.nullable().optional(),
  start_at: ZTagStartAt,
  end_at: ZTagEndAt.nullable().optional(),
  timezone: ZTagTimezone.nullable().optional(),
});

export const ZCreateTagResponseSchema = ZTimeTag;
