// Helpers of the webhook delivery tests: endpoints written straight into the database
// (sealed like the service seals them), events emitted through the real outbox, and reads of
// deliveries and attempts.
import { randomBytes, randomUUID } from "node:crypto";
import { createSealer, emitEvent, parseEncryptionKey, type EventData, type EventType, type Sealer } from "@svc/core";
import { JobQueue } from "@svc/jobs";
import type { ReceivedWebhook } from "@svc/testing";
import { Webhook } from "standardwebhooks";
import type { TestService } from "./test-service.ts";

/** SVC_ENCRYPTION_KEY of the services these tests start, so the test can seal secrets the service opens. */
export const TEST_ENCRYPTION_KEY = randomBytes(32).toString("base64");

export function testSealer(key = TEST_ENCRYPTION_KEY): Sealer {
  return createSealer({ current: parseEncryptionKey(key, "test key") });
}

export const newWebhookSecret = () => `whsec_${randomBytes(24).toString("base64")}`;

export interface TestEndpoint {
  id: string;
  secret: string;
}

/** An endpoint row as the create route would write it (which refuses http URLs, so tests write it directly). */
export async function insertEndpoint(
  svc: Pick<TestService, "db">,
  tenantId: string,
  url: string,
  options: {
    eventTypes?: string[];
    status?: "active" | "disabled";
    secret?: string;
    sealer?: Sealer;
    createdAt?: Date;
    lastSuccessAt?: Date;
  } = {},
): Promise<TestEndpoint> {
  const secret = options.secret ?? newWebhookSecret();
  const row = await svc.db.webhookEndpoint.create({
    data: {
      tenantId,
      url,
      eventTypes: options.eventTypes ?? [],
      status: options.status ?? "active",
      secretSealed: (options.sealer ?? testSealer()).seal(secret),
      ...(options.createdAt && { createdAt: options.createdAt }),
      ...(options.lastSuccessAt && { lastSuccessAt: options.lastSuccessAt }),
    },
    select: { id: true },
  });
  return { id: row.id, secret };
}

/** A job queue of the test's own (no workers): sends jobs as the API would. */
export function startTestQueue(
  svc: Pick<TestService, "databaseUrl">,
  options: { superviseIntervalSeconds?: number } = {},
): Promise<JobQueue> {
  return JobQueue.start(svc.databaseUrl, (error) => console.error("test job queue", error), options);
}

/** Writes an event through the outbox (fan-out and jobs in one transaction); returns its id and commit time (performance.now()). */
export async function emit<T extends EventType>(
  svc: Pick<TestService, "db">,
  jobs: JobQueue,
  event: { tenantId: string; userId?: string | null; type: T; data: EventData<T> },
): Promise<{ eventId: string; committedAt: number }> {
  await svc.db.$transaction((tx) => emitEvent(tx, jobs, { userId: null, ...event }));
  const committedAt = performance.now();
  const row = await svc.db.outboxEvent.findFirstOrThrow({
    where: { tenantId: event.tenantId, type: event.type, data: { equals: event.data } },
    orderBy: { createdAt: "desc" },
    select: { id: true },
  });
  return { eventId: row.id, committedAt };
}

/** A webhook.test event for the tenant (every endpoint subscribed to all types gets it). */
export const testEvent = (tenantId: string) => ({ tenantId, type: "webhook.test" as const, data: { endpoint_id: randomUUID() } });

export function deliveriesOf(svc: Pick<TestService, "db">, endpointId: string) {
  return svc.db.webhookDelivery.findMany({ where: { endpointId }, orderBy: { id: "asc" } });
}

export function attemptsOf(svc: Pick<TestService, "db">, deliveryId: bigint) {
  return svc.db.webhookAttempt.findMany({ where: { deliveryId }, orderBy: { attempt: "asc" } });
}

export function endpointRow(svc: Pick<TestService, "db">, endpointId: string) {
  return svc.db.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } });
}

/** Verifies a received request with the official library; throws when the signature does not hold. */
export function verifyWith(secret: string, request: ReceivedWebhook): unknown {
  const headers: Record<string, string> = {};
  for (const name of ["webhook-id", "webhook-timestamp", "webhook-signature"]) headers[name] = String(request.headers[name] ?? "");
  return new Webhook(secret).verify(request.body.toString("utf8"), headers);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
