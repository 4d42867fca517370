/**
 * The timing rules of webhook deliveries, as data so tests can run the whole ladder in
 * seconds. Production uses DEFAULT_DELIVERY_SCHEDULE (the spec's Delivery rules and Limits).
 */
export interface DeliverySchedule {
  /** Delay before attempt n+2 after attempt n+1 failed; attempts = delays + 1. */
  retryDelaysMs: readonly number[];
  /** A receiver must answer any 2xx within this. */
  timeoutMs: number;
  /** An endpoint that accepted nothing for this long is disabled when one more delivery runs out of attempts. */
  disableAfterMs: number;
  /** Finished (done or parked) deliveries are deleted after this. */
  keepFinishedMs: number;
  /** Attempts kept per delivery. */
  historyKept: number;
  /** Replays of one endpoint that may wait at once. */
  waitingReplaysMax: number;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const DEFAULT_DELIVERY_SCHEDULE: DeliverySchedule = {
  retryDelaysMs: [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR],
  timeoutMs: 15 * SECOND,
  disableAfterMs: 5 * DAY,
  keepFinishedMs: 30 * DAY,
  historyKept: 20,
  waitingReplaysMax: 10,
};

/** What the webhook parts of the service are configured with. */
export interface WebhookSettings {
  /** SVC_WEBHOOK_ALLOW_PRIVATE: private addresses allowed, and http on loopback (local development only). */
  allowPrivate: boolean;
  schedule: DeliverySchedule;
}
