import type { CoreDeps } from "../deps.ts";
import { type DbClient, type Sealer, SecretUnsealable } from "../platform/index.ts";
import {
  claimWebhookDeliveries,
  disableSilentEndpoint,
  insertAttemptKeepingLast,
  lockDeliveryCounters,
  markDeliveryFailed,
  parkWebhookDelivery,
  recordAcceptedAttempts,
  recordEndpointFailure,
  type AcceptedAttempt,
  type ClaimedDelivery,
} from "./attempt-repository.ts";
import { coalesce } from "./coalesce.ts";
import { parkPendingDeliveriesOfEndpoint } from "./delivery-repository.ts";
import { openEndpointSecret } from "./opened-secrets.ts";
import type { WebhookSettings } from "./delivery-schedule.ts";
import { postWebhook, type AttemptOutcome } from "./post-webhook.ts";
import { webhookHeaders } from "./signature.ts";

/** What one run of the delivery job did; safe to log (no body, no secret, no URL). */
export type DeliveryAttemptResult =
  | { result: "nothing-to-do" }
  | { result: "parked-endpoint-disabled"; endpointId: string }
  | {
      result: "done" | "retry" | "parked";
      endpointId: string;
      /** Number of the attempt in the delivery's history (1, 2, ... across retries). */
      attempt: number;
      statusCode: number | null;
      error: string | null;
      durationMs: number;
      nextAttemptAt: Date | null;
      /** The endpoint was disabled by this attempt (its delivery ran out and it accepted nothing for too long). */
      endpointDisabled: boolean;
    };

/**
 * One attempt of one webhook delivery (the `webhook-deliver` job): claims the delivery,
 * signs its stored body with the endpoint's current secret and a fresh timestamp, posts it,
 * and records the attempt, the delivery's next state, the endpoint's health and, on a
 * failure, the next attempt's job, all at once: an accepted attempt (the common case) in one
 * statement, a failed one in one transaction. The claims of deliveries that start in the same
 * turn of the event loop share one statement, as do the records of their accepted attempts. A
 * delivery that is gone, done or parked is left alone; one whose endpoint is disabled is
 * parked without an attempt.
 */
export async function attemptWebhookDelivery(deps: Pick<CoreDeps, "db" | "jobs" | "sealer" | "webhooks">, deliveryId: bigint): Promise<DeliveryAttemptResult> {
  const { db, jobs, sealer, webhooks } = deps;
  const { schedule } = webhooks;
  const statements = coalescedStatements(db);
  const delivery = await statements.claim(deliveryId);
  if (delivery === null) return { result: "nothing-to-do" };
  if (delivery.endpointStatus === "disabled") {
    await parkWebhookDelivery(db, deliveryId);
    return { result: "parked-endpoint-disabled", endpointId: delivery.endpointId };
  }

  const startedAt = new Date();
  const outcome = await send(delivery, sealer, webhooks, startedAt);

  if (outcome.ok) {
    const attempt = await statements.recordAccepted({
      deliveryId,
      startedAt,
      durationMs: outcome.durationMs,
      statusCode: outcome.statusCode,
      responseBodyExcerpt: outcome.responseBodyExcerpt,
      kept: schedule.historyKept,
    });
    if (attempt === null) return { result: "nothing-to-do" };
    const { endpointId } = delivery;
    const { statusCode, durationMs } = outcome;
    return { result: "done", endpointId, attempt, statusCode, error: null, durationMs, nextAttemptAt: null, endpointDisabled: false };
  }

  return db.$transaction(async (tx) => {
    const counters = await lockDeliveryCounters(tx, deliveryId);
    if (counters === null) return { result: "nothing-to-do" } as const;
    const attempt = counters.attemptsMade + 1;
    const attempts = counters.attempts + 1;
    const error = outcome.error ?? "failed";
    await insertAttemptKeepingLast(
      tx,
      { deliveryId, attempt, startedAt, durationMs: outcome.durationMs, statusCode: outcome.statusCode, error, responseBodyExcerpt: outcome.responseBodyExcerpt },
      schedule.historyKept,
    );
    const report = { endpointId: delivery.endpointId, attempt, statusCode: outcome.statusCode, error, durationMs: outcome.durationMs };

    // retryDelaysMs[n - 1] is the wait after the n-th failed attempt; none is left after the last.
    const delayMs = schedule.retryDelaysMs[attempts - 1];
    const nextAttemptAt = delayMs === undefined ? null : new Date(Date.now() + delayMs);
    await markDeliveryFailed(tx, deliveryId, { attempts, attemptsMade: attempt, statusCode: outcome.statusCode, error, nextAttemptAt });
    await recordEndpointFailure(tx, delivery.endpointId, startedAt);
    if (nextAttemptAt !== null) {
      // No startAfter for a zero delay: the job is due at once and NOTIFY wakes a worker.
      const timing = delayMs !== undefined && delayMs > 0 ? { startAfter: nextAttemptAt } : {};
      await jobs.send("webhook-deliver", { delivery_id: deliveryId.toString() }, tx, timing);
      return { result: "retry", ...report, nextAttemptAt, endpointDisabled: false } as const;
    }
    const endpointDisabled = await disableSilentEndpoint(
      tx,
      delivery.endpointId,
      schedule.disableAfterMs,
      `No delivery was accepted for ${describeDuration(schedule.disableAfterMs)} and delivery ${deliveryId} ran out of attempts; ` +
        "fix the receiver, then re-enable the endpoint with PATCH enabled: true.",
    );
    if (endpointDisabled) await parkPendingDeliveriesOfEndpoint(tx, delivery.endpointId);
    return { result: "parked", ...report, nextAttemptAt: null, endpointDisabled } as const;
  });
}

type CoalescedStatements = {
  claim: (deliveryId: bigint) => Promise<ClaimedDelivery | null>;
  recordAccepted: (attempt: AcceptedAttempt) => Promise<number | null>;
};

const coalescedByDb = new WeakMap<DbClient, CoalescedStatements>();

/** The claims, and the records of accepted attempts, of this process's deliveries that run at once share a statement. */
function coalescedStatements(db: DbClient): CoalescedStatements {
  let statements = coalescedByDb.get(db);
  if (statements === undefined) {
    statements = {
      claim: coalesce((ids: bigint[]) => claimWebhookDeliveries(db, ids)),
      recordAccepted: coalesce((attempts: AcceptedAttempt[]) => recordAcceptedAttempts(db, attempts)),
    };
    coalescedByDb.set(db, statements);
  }
  return statements;
}

/** Opens the endpoint's secret and posts the signed body; a secret no key opens is a failed attempt without a request. */
async function send(delivery: ClaimedDelivery, sealer: Sealer, webhooks: WebhookSettings, startedAt: Date): Promise<AttemptOutcome> {
  let secret: string;
  try {
    secret = openEndpointSecret(sealer, delivery.secretSealed);
  } catch (error) {
    if (!(error instanceof SecretUnsealable)) throw error;
    return { ok: false, statusCode: null, error: error.message, responseBodyExcerpt: null, durationMs: 0 };
  }
  return postWebhook({
    url: delivery.url,
    headers: webhookHeaders(secret, { id: delivery.eventId, body: delivery.body }, startedAt),
    body: delivery.body,
    timeoutMs: webhooks.schedule.timeoutMs,
    allowPrivate: webhooks.allowPrivate,
  });
}

const UNITS = [
  [24 * 60 * 60 * 1000, "day"],
  [60 * 60 * 1000, "hour"],
  [60 * 1000, "minute"],
  [1000, "second"],
] as const;

/** 432000000 → "5 days"; the largest unit that divides it evenly, milliseconds otherwise. */
function describeDuration(ms: number): string {
  for (const [size, unit] of UNITS) {
    if (ms >= size && ms % size === 0) return `${ms / size} ${unit}${ms === size ? "" : "s"}`;
  }
  return `${ms} ms`;
}
