import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { describeSelfReportScales, SELF_REPORT_KIND_NAMES } from "@svc/core";
import type { SvcMeta } from "../../trpc.ts";
import { ZDateTime, ZId } from "../../schemas/common.ts";

export const createSelfReportsMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "POST",
    path: "/v1/users/{id}/self-reports",
    tags: ["records"],
    summary: "Store self reports",
    description: [
      "Stores 1 to 100 reports a person made about themselves, each as a quantity sample of type `reported_<kind>` (unit `score`, provider and source `self_report`), readable through `GET /v1/users/{id}/samples`. Answers 202 with the stored reports in request order, each with its id, and `duplicate: true` when nothing was new or changed (one `data.written` event is sent otherwise).",
      "A report's `id` is its identity: sending a report again with that id replaces its value, times and zone (also when start_at moved). Without an id, the id is derived from the user, kind, start_at and end_at, so sending the same report again is a duplicate and a new value at the same times replaces the old one. An id keeps its kind: another kind with a stored report's id is 409.",
      "Kinds and their scales (`value` is a whole number from the first to the second bound; the labels name the anchors):",
      describeSelfReportScales(),
      "Tenant API key for any user of the tenant, or the user's own token with scope upload. Send Idempotency-Key to make retries safe: the same key and body within 24 hours replays the first answer with Idempotent-Replayed: true.",
    ].join("\n\n"),
    requestHeaders: z.object({
      "Idempotency-Key": z.string().min(1).max(255).optional().describe("1 to 255 characters; replay window 24 hours."),
    }),
    errorResponses: {
      400: "Invalid body or Idempotency-Key; a value off its kind's scale (the detail names the field and the scale, never the value)",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key or a user token with scope upload, or the provider self_report is switched off for the tenant",
      404: "No such user in the tenant (or not the token's user), or the user is being deleted",
      409: "The user's self reports are being erased or their consent was revoked (POST /v1/users/{id}/consents/self_report/revoke), an id belongs to a stored report of another kind, or the same Idempotency-Key is still being processed",
      422: "Idempotency-Key reused with a different request",
    },
  },
  successStatus: 202,
};

const ZKind = z.enum(SELF_REPORT_KIND_NAMES).describe("What is reported; each kind has its own scale (see the route description).");

const ZSelfReportRequest = z.strictObject({
  id: z
    .uuid()
    .optional()
    .describe("Optional: the report's id, chosen by the client. A report sent again with its id replaces the stored one."),
  kind: ZKind,
  value: z.number().int().describe("A whole number on the kind's scale: 1–5 for feeling, mood, stress, energy and sleep_quality; 0–10 for muscle_soreness, session_effort and pain."),
  start_at: z.iso.datetime({ offset: true }).describe("When the report applies (RFC 3339, any offset; answered in UTC)."),
  end_at: z.iso
    .datetime({ offset: true })
    .optional()
    .describe("Optional end of the time the report covers, not before start_at; default start_at (an instant)."),
  timezone: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe("Optional: the person's time zone, an IANA name (e.g. `Europe/Berlin`) or a ±hh:mm offset; sets the local day of the report."),
});

export const ZCreateSelfReportsRequestSchema = z.strictObject({
  id: ZId("user"),
  reports: z.array(ZSelfReportRequest).min(1).max(100).describe("1 to 100 reports."),
});

const ZSelfReport = z.object({
  id: z.uuid().describe("The report's id: the one sent, or derived from user, kind, start_at and end_at."),
  kind: ZKind,
  type: z.string().describe("The stored quantity type, `reported_<kind>`."),
  value: z.number().int(),
  start_at: ZDateTime,
  end_at: ZDateTime,
  timezone: z.string().nullable().describe("As sent; null when not sent."),
});

export const ZCreateSelfReportsResponseSchema = z.object({
  reports: z.array(ZSelfReport).describe("The stored reports, in request order."),
  duplicate: z.boolean().describe("True when these exact reports had already been received: nothing was new or changed."),
});
