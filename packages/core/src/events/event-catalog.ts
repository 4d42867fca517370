import { z } from "zod";

// Every event svc sends to webhooks: its `data` schema and a sample for the test route.
// Events are thin: ids, names, counts and days, never a health value.

const uuid = z.uuid();
const externalRef = z.string().nullable();
const provider = z.string();
const localDay = z.iso.date().nullable();
const SAMPLE_USER = { user_id: "00000000-0000-0000-0000-000000000000", external_ref: "sample-user" } as const;
const SAMPLE_ID = "00000000-0000-0000-0000-000000000001";

const aboutUser = { user_id: uuid, external_ref: externalRef };
const aboutShare = { ...aboutUser, share_id: uuid };

export const EVENT_CATALOG = {
  "data.written": {
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
    data: z.strictObject({ ...aboutUser, provider, records_deleted: z.int().nonnegative() }),
    sample: { ...SAMPLE_USER, provider: "health_connect", records_deleted: 2 },
  },
  "data.erased": {
    data: z.strictObject({ ...aboutUser, provider, job_id: uuid }),
    sample: { ...SAMPLE_USER, provider: "oura", job_id: SAMPLE_ID },
  },
  "user.deleted": {
    data: z.strictObject(aboutUser),
    sample: { ...SAMPLE_USER },
  },
  "consent.granted": {
    data: z.strictObject({ ...aboutUser, provider, categories: z.array(z.string()) }),
    sample: { ...SAMPLE_USER, provider: "oura", categories: ["sleep", "heart"] },
  },
  "consent.revoked": {
    data: z.strictObject({ ...aboutUser, provider, categories: z.array(z.string()) }),
    sample: { ...SAMPLE_USER, provider: "oura", categories: ["sleep"] },
  },
  "connection.needs_reauth": {
    data: z.strictObject({ ...aboutUser, provider }),
    sample: { ...SAMPLE_USER, provider: "oura" },
  },
  "connection.broken": {
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
    data: z.strictObject({
      ...aboutUser,
      provider,
      previous_reason: z.string(),
      broken_since: z.iso.datetime({ offset: true }),
      broken_seconds: z.int().nonnegative(),
    }),
    sample: { ...SAMPLE_USER, provider: "oura", previous_reason: "pulls_failing", broken_since: "2026-01-01T00:00:00.000Z", broken_seconds: 3600 },
  },
  "tag.created": { data: z.strictObject({ ...aboutUser, tag_id: uuid }), sample: { ...SAMPLE_USER, tag_id: SAMPLE_ID } },
  "tag.updated": { data: z.strictObject({ ...aboutUser, tag_id: uuid }), sample: { ...SAMPLE_USER, tag_id: SAMPLE_ID } },
  "tag.deleted": { data: z.strictObject({ ...aboutUser, tag_id: uuid }), sample: { ...SAMPLE_USER, tag_id: SAMPLE_ID } },
  "share.created": {
    data: z.strictObject({ ...aboutShare, categories: z.array(z.string()), expires_at: z.iso.datetime({ offset: true }).nullable(), passcode: z.boolean() }),
    sample: { ...SAMPLE_USER, share_id: SAMPLE_ID, categories: ["sleep", "heart"], expires_at: "2026-02-01T00:00:00.000Z", passcode: true },
  },
  "share.revoked": {
    data: z.strictObject({ ...aboutShare, reason: z.enum(["owner", "consent", "provider_erased", "passcode_attempts"]) }),
    sample: { ...SAMPLE_USER, share_id: SAMPLE_ID, reason: "owner" },
  },
  "share.accessed": { data: z.strictObject(aboutShare), sample: { ...SAMPLE_USER, share_id: SAMPLE_ID } },
  "webhook.test": { data: z.strictObject({ endpoint_id: uuid }), sample: { endpoint_id: SAMPLE_ID } },
} as const satisfies Record<string, { data: z.ZodType; sample: unknown }>;

export type EventType = keyof typeof EVENT_CATALOG;
export type EventData<T extends EventType> = z.infer<(typeof EVENT_CATALOG)[T]["data"]>;

export const EVENT_TYPES = Object.keys(EVENT_CATALOG) as EventType[];

export const isEventType = (value: string): value is EventType => Object.hasOwn(EVENT_CATALOG, value);
