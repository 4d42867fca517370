// The published entry of @svc/client: the REST client and its helpers, fetch only (Node 20+
// and browsers). The tRPC client is the workspace-only entry @svc/client/trpc (trpc-client.ts).
export type { ClientOptions } from "./client-options.ts";
export { createRestClient, type RestClient } from "./rest-client.ts";
export { paginate, type Page } from "./paginate.ts";
export { SvcError, problemOf, unwrap, type Problem, type RestResult } from "./problem.ts";
export { upload, type UploadAnswer, type UploadRoute } from "./upload.ts";
export { createRetryingFetch, type Fetch, type RetryOptions } from "./retrying-fetch.ts";
export { IDEMPOTENCY_KEY_HEADER, newIdempotencyKey } from "./idempotency.ts";
export { verifyWebhook, WebhookVerificationError, type WebhookHeaders } from "./verify-webhook.ts";
export type { WebhookEvent, WebhookEventData, WebhookEventOf, WebhookEventType } from "./webhook-events.ts";
export type { paths as RestPaths, components as RestComponents } from "./generated/openapi.ts";
