// verifyWebhook against real deliveries of the service to a real local receiver: events of
// real operations and the test route's sample of every type verify and come out typed; a
// tampered body, another secret and a stale timestamp are refused.
import { gzipSync } from "node:zlib";
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from "@svc/testing";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import {
  createRestClient,
  unwrap,
  upload,
  verifyWebhook,
  WebhookVerificationError,
  type RestClient,
  type WebhookEvent,
  type WebhookEventData,
  type WebhookEventType,
} from "../src/index.ts";
import { createTrpcClient, type TrpcClient } from "../src/trpc-client.ts";
import { startLiveService, type LiveService } from "./helpers/live-service.ts";

let svc: LiveService;
let rest: RestClient;
let trpc: TrpcClient;
let receiver: WebhookReceiver;
let endpoint: { id: string; secret: string };

beforeAll(async () => {
  svc = await startLiveService();
  rest = createRestClient({ baseUrl: svc.url, token: svc.apiKey });
  trpc = createTrpcClient({ baseUrl: svc.url, token: svc.apiKey });
  receiver = await startWebhookReceiver();
  endpoint = await unwrap(rest.POST("/v1/webhooks", { body: { url: receiver.url } }));
});
afterAll(async () => {
  await receiver?.close();
  await svc?.stop();
});

const verify = (request: ReceivedWebhook) => verifyWebhook(endpoint.secret, request.body, request.headers);

/** Waits for the first delivery whose event satisfies `match`; returns it and its request. */
async function delivered(match: (event: WebhookEvent) => boolean): Promise<{ event: WebhookEvent; request: ReceivedWebhook }> {
  await receiver.waitFor((requests) => requests.some((request) => match(verify(request))), 20_000);
  const request = receiver.requests.find((candidate) => match(verify(candidate)))!;
  return { event: verify(request), request };
}

describe("verifyWebhook", () => {
  it("verifies a real tag.created delivery and types its data", async () => {
    const user = await trpc.users.createUser.mutate({ external_ref: "hooked" });
    const tag = await trpc.tags.createTag.mutate({ id: user.id, kind: "sauna", label: "Sauna", start_at: "2026-03-01T18:00:00Z" });

    const { event, request } = await delivered((candidate) => candidate.type === "tag.created");
    expect(endpoint.secret).toMatch(/^whsec_/);
    expect(event.id).toBe(request.headers["webhook-id"]);
    if (event.type !== "tag.created") throw new Error("narrowed above");
    expectTypeOf(event.data).toEqualTypeOf<WebhookEventData<"tag.created">>();
    expect(event.data).toEqual({ user_id: user.id, external_ref: "hooked", tag_id: tag.tag_id });
    expect(event.test).toBeUndefined();

    // A fetch-style Headers object and a string body verify the same.
    const headers = new Headers(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
    expect(verifyWebhook(endpoint.secret, request.body.toString("utf8"), headers)).toEqual(event);
  });

  it("verifies a data.written of an upload, typed", async () => {
    const user = await trpc.users.createUser.mutate({ external_ref: "uploader" });
    const { token } = await unwrap(rest.POST("/v1/users/{id}/tokens", { params: { path: { id: user.id } }, body: { scopes: ["upload"] } }));
    const line = JSON.stringify({ characteristic: "2a37", value: "0048", received_at: "2026-03-01T10:00:00Z" });
    await upload(createRestClient({ baseUrl: svc.url, token }), "bluetooth", gzipSync(line), { contentType: "application/x-ndjson" });

    const { event } = await delivered((candidate) => candidate.type === "data.written" && candidate.data.user_id === user.id);
    if (event.type !== "data.written") throw new Error("narrowed above");
    expectTypeOf(event.data.records).toEqualTypeOf<Record<string, number>>();
    expect(event.data).toMatchObject({ provider: "bluetooth", external_ref: "uploader", types: ["heart_rate"], first_day: "2026-03-01" });
  });

  it("refuses a tampered body, another secret and a stale timestamp, with a clear error", async () => {
    const { request } = await delivered((candidate) => candidate.type === "tag.created");
    const body = request.body.toString("utf8");

    const tampered = body.replace('"hooked"', '"hacked"');
    expect(tampered).not.toBe(body);
    expect(() => verifyWebhook(endpoint.secret, tampered, request.headers)).toThrow(WebhookVerificationError);
    expect(() => verifyWebhook(endpoint.secret, tampered, request.headers)).toThrow("The webhook did not verify: No matching signature found.");

    const otherSecret = `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("base64")}`;
    expect(() => verifyWebhook(otherSecret, request.body, request.headers)).toThrow(WebhookVerificationError);

    // Signed correctly with the right secret, but 10 minutes ago.
    const id = String(request.headers["webhook-id"]);
    const signedAt = new Date(Date.now() - 10 * 60_000);
    const stale = { "webhook-id": id, "webhook-timestamp": String(Math.floor(signedAt.getTime() / 1000)), "webhook-signature": new Webhook(endpoint.secret).sign(id, signedAt, body) };
    expect(() => verifyWebhook(endpoint.secret, body, stale)).toThrow("The webhook did not verify: Message timestamp too old.");

    expect(() => verifyWebhook(endpoint.secret, body, { "webhook-id": id })).toThrow("Missing required headers");
    expect(() => verifyWebhook("not-a-secret", body, request.headers)).toThrow(/whsec_/);
  });
});

/** Every event type; the check below fails to compile when the catalog gains one. */
const ALL_TYPES = [
  "data.written",
  "data.deleted",
  "data.erased",
  "user.deleted",
  "consent.granted",
  "consent.revoked",
  "connection.needs_reauth",
  "connection.broken",
  "connection.restored",
  "tag.created",
  "tag.updated",
  "tag.deleted",
  "share.created",
  "share.revoked",
  "share.accessed",
  "webhook.test",
] as const satisfies readonly WebhookEventType[];
const everyType: [Exclude<WebhookEventType, (typeof ALL_TYPES)[number]>] extends [never] ? true : false = true;

describe("the event types", () => {
  it("match what the service sends: the test route's sample of every type verifies and reads as its type", async () => {
    expect(everyType).toBe(true);
    for (const eventType of ALL_TYPES) {
      await unwrap(rest.POST("/v1/webhooks/{webhook_id}/test", { params: { path: { webhook_id: endpoint.id } }, body: { event_type: eventType } }));
    }
    const samples = new Map<string, WebhookEvent>();
    await receiver.waitFor((requests) => {
      for (const request of requests) {
        const event = verify(request);
        if (event.test) samples.set(event.type, event);
      }
      return samples.size === ALL_TYPES.length;
    }, 30_000);

    expect([...samples.keys()].sort()).toEqual([...ALL_TYPES].sort());
    const sample = samples.get("share.revoked");
    if (sample?.type !== "share.revoked") throw new Error("share.revoked sample missing");
    expectTypeOf(sample.data.reason).toEqualTypeOf<"owner" | "consent" | "provider_erased" | "passcode_attempts">();
    expect(sample.data).toMatchObject({ user_id: "00000000-0000-0000-0000-000000000000", external_ref: "sample-user", reason: expect.any(String) });
  });
});
