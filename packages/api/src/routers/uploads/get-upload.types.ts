import { z } from "zod";
import type { OpenApiMeta } from "trpc-to-openapi";
import { UPLOAD_REJECTIONS_LISTED, type WrittenTable } from "@svc/core";
import type { SvcMeta } from "../../trpc.ts";
import { ZDateTime, ZId } from "../../schemas/common.ts";

export const getUploadMeta: OpenApiMeta<SvcMeta> = {
  openapi: {
    method: "GET",
    path: "/v1/ingest/uploads/{upload_id}",
    tags: ["uploads"],
    summary: "Follow an upload",
    description: [
      "Where an upload to `POST /v1/ingest/<route>` is (its 202 answer names it in upload_id and links here in Location), and once processed what its records came to: rows written per table, records skipped without consent, and the records refused, with their line and reason (never a value).",
      "Poll until status is processed or failed. A tenant API key sees the uploads of any user of the tenant; a user token with scope upload sees its own user's uploads, whichever of the user's tokens sent them.",
    ].join("\n\n"),
    errorResponses: {
      400: "upload_id is not a uuid",
      401: "Missing, wrong or expired secret",
      403: "Not a tenant API key or a user token with scope upload",
      404: "No such upload of the tenant (or of the token's user), or its user is being deleted",
    },
  },
};

export const ZGetUploadRequestSchema = z.object({ upload_id: ZId("upload") });

const count = (what: string) => z.number().int().min(0).describe(what);

export const ZRejection = z.object({
  line: z.number().int().nullable().describe("The (first) line of the body the record came from; null when it names none (e.g. a body that could not be read)."),
  locator: z.string().nullable().describe("Where in the body, as the parser put it: `line 7`, `lines 7-9`, `line 2, session[0]`."),
  record_kind: z.string().describe("What was refused, e.g. quantity_sample, workout, health_connect_line, raw_object."),
  reason: z.string().describe("Why; names fields and units, never a value."),
});

const ZRowsWritten = z
  .object({
    quantity_samples: count("Quantity samples (GET /v1/users/{id}/samples)."),
    category_samples: count("Category samples."),
    sleep_sessions: count("Sleep sessions."),
    workouts: count("Workouts."),
    nutrition_logs: count("Nutrition logs."),
    daily_summaries: count("Daily summaries."),
    heartbeat_series: count("Heartbeat series (RR intervals)."),
    ecg_recordings: count("ECG recordings."),
  } satisfies Record<WrittenTable, z.ZodNumber>)
  .describe("Rows inserted or changed per table, as in data.written (records already stored unchanged are not counted); all 0 until processed.");

export const ZGetUploadResponseSchema = z.object({
  upload_id: z.uuid(),
  user_id: z.uuid(),
  provider: z.string().describe("The provider its records are stored under, e.g. apple_health."),
  format: z.string().describe("What the body is, e.g. apple-health-ndjson, activity-files-base64."),
  status: z
    .enum(["receiving", "pending", "processed", "failed"])
    .describe(
      "receiving: its bytes are still arriving. pending: stored, waiting for or in processing. processed: its records are written (records and rejected are final). failed: processing gave up; error says why and nothing of it was written.",
    ),
  byte_size: z.number().int().min(0).describe("The body's size as sent (0 while receiving)."),
  received_at: ZDateTime,
  processed_at: ZDateTime.nullable().describe("When processing ended (processed or failed); null before."),
  records: ZRowsWritten,
  skipped_without_consent: count("Records not stored because the user revoked their category for the provider."),
  rejected: z.object({
    total: count("Every record refused from this upload."),
    first: z.array(ZRejection).describe(`The first ${UPLOAD_REJECTIONS_LISTED} refused records by line (those naming no line last).`),
  }),
  error: z.string().nullable().describe("Why processing failed (never a value); null unless status is failed."),
});
