import type { WebhookAttemptRow, WebhookDeliveryRow, WebhookDeliveryStatusValue } from "./delivery-repository.ts";
import type { WebhookEndpointRow } from "./endpoint-repository.ts";

/** A webhook endpoint as the API answers it (the spec's Webhook endpoint). Never the secret. */
export interface WebhookEndpointDto {
  id: string;
  url: string;
  description: string;
  event_types: string[];
  status: "active" | "disabled";
  disabled_reason: string | null;
  failing_since: string | null;
  last_success_at: string | null;
  created_at: string;
  updated_at: string;
}

/** The answer of creation: the endpoint and its secret, shown this once. */
export interface CreatedWebhookEndpointDto extends WebhookEndpointDto {
  secret: string;
}

/** A delivery as lists show it (the spec's Webhook delivery, without payload and attempt_history). */
export interface WebhookDeliveryDto {
  id: number;
  event_id: string;
  event_type: string;
  status: WebhookDeliveryStatusValue;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  delivered_at: string | null;
  created_at: string;
  replay_of: number | null;
}

export interface WebhookAttemptDto {
  id: number;
  attempt: number;
  started_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_body_excerpt: string | null;
}

/** One delivery in full: the exact body it sends and its last attempts, oldest first. */
export interface WebhookDeliveryDetailDto extends WebhookDeliveryDto {
  payload: Record<string, unknown>;
  attempt_history: WebhookAttemptDto[];
}

const iso = (time: Date | null) => time?.toISOString() ?? null;

export const toWebhookEndpointDto = (row: WebhookEndpointRow): WebhookEndpointDto => ({
  id: row.id,
  url: row.url,
  description: row.description,
  event_types: row.eventTypes,
  status: row.status,
  disabled_reason: row.disabledReason,
  failing_since: iso(row.failingSince),
  last_success_at: iso(row.lastSuccessAt),
  created_at: row.createdAt.toISOString(),
  updated_at: row.updatedAt.toISOString(),
});

// Delivery and attempt ids are bigint in the database and integers in the API; they stay
// far below 2^53.
export const toWebhookDeliveryDto = (row: WebhookDeliveryRow): WebhookDeliveryDto => ({
  id: Number(row.id),
  event_id: row.eventId,
  event_type: row.eventType,
  status: row.status,
  attempts: row.attempts,
  last_status_code: row.lastStatusCode,
  last_error: row.lastError,
  next_attempt_at: iso(row.nextAttemptAt),
  delivered_at: iso(row.deliveredAt),
  created_at: row.createdAt.toISOString(),
  replay_of: row.replayOf === null ? null : Number(row.replayOf),
});

export const toWebhookAttemptDto = (row: WebhookAttemptRow): WebhookAttemptDto => ({
  id: Number(row.id),
  attempt: row.attempt,
  started_at: row.startedAt.toISOString(),
  duration_ms: row.durationMs,
  status_code: row.statusCode,
  error: row.error,
  response_body_excerpt: row.responseBodyExcerpt,
});

export const toWebhookDeliveryDetailDto = (row: WebhookDeliveryRow & { body: string }, attempts: WebhookAttemptRow[]): WebhookDeliveryDetailDto => ({
  ...toWebhookDeliveryDto(row),
  payload: JSON.parse(row.body) as Record<string, unknown>,
  attempt_history: attempts.map(toWebhookAttemptDto),
});
