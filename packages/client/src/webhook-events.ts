import type { components } from "./generated/events.ts";

type Catalog = components["schemas"];

export type WebhookEventType = keyof Catalog;

export type WebhookEventData<T extends WebhookEventType> = Catalog[T];

/** The body of every svc webhook: narrow on `type` to get its `data`. */
export type WebhookEvent = {
  [T in WebhookEventType]: {
    /** Equals the webhook-id header: the same on every retry, so it deduplicates. */
    id: string;
    type: T;
    timestamp: string;
    data: Catalog[T];
    /** Present (true) only on events sent by POST /v1/webhooks/{webhook_id}/test. */
    test?: true;
  };
}[WebhookEventType];

export type WebhookEventOf<T extends WebhookEventType> = Extract<WebhookEvent, { type: T }>;
