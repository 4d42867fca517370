import type { DeliveryAttemptResult } from "@svc/core";
import type { Histogram } from "prom-client";

/** Webhook attempts this process made, by outcome; its `_count` is the number of attempts. Kept once keepWebhookMetrics ran. */
let attemptDuration: Histogram<"outcome"> | undefined;

/** Keeps webhook metrics from now on; prom-client loads only in a process that keeps metrics (its memory at rest). */
export async function keepWebhookMetrics(): Promise<void> {
  const { Histogram } = await import("@svc/jobs/prom-client");
  attemptDuration ??= new Histogram({
    name: "svc_webhook_attempt_duration_seconds",
    help: "Webhook delivery attempts this process made, by outcome (delivered; retry: failed, another attempt queued; parked: failed, no attempt left), and how long each took.",
    labelNames: ["outcome"] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
  });
}

const OUTCOMES = { done: "delivered", retry: "retry", parked: "parked" } as const;

/** Records an attempt that was made (a delivery with nothing to do, or parked without an attempt, is none), when metrics are kept. */
export function recordWebhookAttempt(result: Extract<DeliveryAttemptResult, { attempt: number }>): void {
  attemptDuration?.observe({ outcome: OUTCOMES[result.result] }, result.durationMs / 1000);
}
