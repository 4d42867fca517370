import { z } from "zod";

// Every event svc sends to webhooks: when it is sent, its `data` schema and a sample for the test route.
// Events are thin: ids, names, counts and days, never a health value.

const uuid = z.uuid();
const externalRef = z.string().nullable();
const provider = z.string();
const localDay = z.iso.date().nullable();
const SAMPLE_USER = { user_id: "00000000-0000-0000-0000-000000000000", external_ref: "sample-user" } as const;
// A valid RFC 9562 uuid (version 4 shape), as the data schemas require; the user is the nil uuid.
const SAMPLE_ID = "00000000-0000-4000-8000-000000000001";

const aboutUser = { user_id: uuid, external_ref: externalRef };
const aboutShare = { ...aboutUser, share_id: uuid };

export const EVENT_CATALOG = {
  "data.written": {
    sentWhen: "A sync or upload wrote new or changed records (one event per stored raw payload).",
    data: z.strictObject({
      ...aboutUser,
      provider,
      records: z.record(z.string(), z.int().nonnegative()),
      types: z.array(z.string()),
      first_day: localDay,
      last_day: localDay,
    }),
    sample: { ...SAMPLE_USER, provider: "apple_health", records: { quantity_samples: 120 }, types: ["heart_rate", "step_count"], first_day: "2026-01-01", last_day: "2026-01-02" },
  },
  "data.deleted": {
    sentWhen: "Records the provider deleted were removed.",
    data: z.strictObject({ ...aboutUser, provider, records_deleted: z.int().nonnegative() }),
    sample: { ...SAMPLE_USER, provider: "health_connect", records_deleted: 2 },
  },
  "data.erased": {
    sentWhen: "An erasure of one provider's data of the user finished.",
    data: z.strictObject({ ...aboutUser, provider, job_id: uuid }),
    sample: { ...SAMPLE_USER, provider: "oura", job_id: SAMPLE_ID },
  },
  "user.deleted": {
    sentWhen: "A user's erasure finished.",
    data: z.strictObject(aboutUser),
    sample: { ...SAMPLE_USER },
  },
  "consent.granted": {
    sentWhen: "Categories of a source were granted.",
    data: z.strictObject({ ...aboutUser, provider, categories: z.array(z.string()) }),
    sample: { ...SAMPLE_USER, provider: "oura", categories: ["sleep", "heart"] },
  },
  "consent.revoked": {
    sentWhen: "Categories of a source were revoked (their stored records are being deleted).",
    data: z.strictObject({ ...aboutUser, provider, categories: z.array(z.string()) }),
    sample: { ...SAMPLE_USER, provider: "oura", categories: ["sleep"] },
  },
  "connection.needs_reauth": {
    sentWhen: "The provider refused the user's grant: the user must reconnect.",
    data: z.strictObject({ ...aboutUser, provider }),
    sample: { ...SAMPLE_USER, provider: "oura" },
  },
  "connection.broken": {
    sentWhen: "A connection stopped syncing: grant refused, permission missing, pulls failing, or the provider's quota spent.",
    data: z.strictObject({
      ...aboutUser,
      provider,
      reason: z.string(),
      action: z.string(),
      retry_at: z.iso.datetime({ offset: true }).nullable().optional(),
      last_error: z.string().nullable().optional(),
      consecutive_failures: z.int().nonnegative().optional(),
    }),
    sample: { ...SAMPLE_USER, provider: "oura", reason: "pulls_failing", action: "wait", last_error: "HTTP 503 from the provider", consecutive_failures: 5 },
  },
  "connection.restored": {
    sentWhen: "A broken connection synced again, or the user reconnected.",
    data: z.strictObject({
      ...aboutUser,
      provider,
      previous_reason: z.string(),
      broken_since: z.iso.datetime({ offset: true }),
      broken_seconds: z.int().nonnegative(),
    }),
    sample: { ...SAMPLE_USER, provider: "oura", previous_reason: "pulls_failing", broken_since: "2026-01-01T00:00:00.000Z", broken_seconds: 3600 },
  },
  "tag.created": { sentWhen: "A time tag was created through the API.", data: z.strictObject({ ...aboutUser, tag_id: uuid }), sample: { ...SAMPLE_USER, tag_id: SAMPLE_ID } },
  "tag.updated": { sentWhen: "A time tag was changed through the API.", data: z.strictObject({ ...aboutUser, tag_id: uuid }), sample: { ...SAMPLE_USER, tag_id: SAMPLE_ID } },
  "tag.deleted": { sentWhen: "A time tag was deleted through the API.", data: z.strictObject({ ...aboutUser, tag_id: uuid }), sample: { ...SAMPLE_USER, tag_id: SAMPLE_ID } },
  "share.created": {
    sentWhen: "A share link was made.",
    data: z.strictObject({ ...aboutShare, categories: z.array(z.string()), expires_at: z.iso.datetime({ offset: true }).nullable(), passcode: z.boolean() }),
    sample: { ...SAMPLE_USER, share_id: SAMPLE_ID, categories: ["sleep", "heart"], expires_at: "2026-02-01T00:00:00.000Z", passcode: true },
  },
  "share.revoked": {
    sentWhen: "A share link stopped before its expiry.",
    data: z.strictObject({ ...aboutShare, reason: z.enum(["owner", "consent", "provider_erased", "passcode_attempts"]) }),
    sample: { ...SAMPLE_USER, share_id: SAMPLE_ID, reason: "owner" },
  },
  "share.accessed": { sentWhen: "A share link's file was served.", data: z.strictObject(aboutShare), sample: { ...SAMPLE_USER, share_id: SAMPLE_ID } },
  "webhook.test": { sentWhen: "POST /v1/webhooks/{webhook_id}/test was called (sent to that endpoint only, with test: true).", data: z.strictObject({ endpoint_id: uuid }), sample: { endpoint_id: SAMPLE_ID } },
} as const satisfies Record<string, { sentWhen: string; data: z.ZodType; sample: unknown }>;

export type EventType = keyof typeof EVENT_CATALOG;
export type EventData<T extends EventType> = z.infer<(typeof EVENT_CATALOG)[T]["data"]>;

export const EVENT_TYPES = Object.keys(EVENT_CATALOG) as EventType[];

export const isEventType = (value: string): value is EventType => Object.hasOwn(EVENT_CATALOG, value);
