// Checks a webhook request of svc (Standard Webhooks) with Node's standard library only.
// Node 22.18+ or 24 runs this file as it is:
//   WEBHOOK_SECRET=whsec_… WEBHOOK_ID=… WEBHOOK_TIMESTAMP=… WEBHOOK_SIGNATURE=… node verify-webhook.ts body.json
import { createHmac, timingSafeEqual } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const TOLERANCE_SECONDS = 5 * 60;

export class WebhookVerificationError extends Error {}

/** The three headers as received (Node lower-cases header names). */
export interface WebhookHeaders {
  "webhook-id"?: string | undefined;
  "webhook-timestamp"?: string | undefined;
  "webhook-signature"?: string | undefined;
}

/**
 * Returns the event when svc signed exactly these bytes with `secret` less than 5 minutes
 * from `nowSeconds`; throws WebhookVerificationError otherwise. `rawBody` is the body as
 * received, before any JSON parsing.
 */
export function verifyWebhook(secret: string, headers: WebhookHeaders, rawBody: Buffer, nowSeconds = Date.now() / 1000): unknown {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  const signature = headers["webhook-signature"];
  if (!id || !timestamp || !signature) throw new WebhookVerificationError("a webhook-id, webhook-timestamp or webhook-signature header is missing");
  if (!/^[0-9]+$/.test(timestamp)) throw new WebhookVerificationError("webhook-timestamp is not a number of seconds");
  if (Math.abs(nowSeconds - Number(timestamp)) > TOLERANCE_SECONDS) throw new WebhookVerificationError("webhook-timestamp is more than 5 minutes away from now");

  // The HMAC key is the base64-decoded part of the secret after `whsec_`.
  const key = Buffer.from(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret, "base64");
  if (key.length === 0) throw new WebhookVerificationError("the secret holds no key");
  const expected = Buffer.from(createHmac("sha256", key).update(`${id}.${timestamp}.`).update(rawBody).digest("base64"));

  // The header is a space-separated list of `v1,<base64>`; one match is enough.
  for (const entry of signature.split(" ")) {
    const comma = entry.indexOf(",");
    if (comma === -1 || entry.slice(0, comma) !== "v1") continue;
    const given = Buffer.from(entry.slice(comma + 1));
    if (given.length === expected.length && timingSafeEqual(given, expected)) return JSON.parse(rawBody.toString("utf8"));
  }
  throw new WebhookVerificationError("no v1 signature matches");
}

// Command line: the raw body in a file, the secret and the headers in the environment;
// WEBHOOK_NOW (Unix seconds) checks a recorded request against the time it arrived.
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const env = process.env;
  try {
    const headers = { "webhook-id": env.WEBHOOK_ID, "webhook-timestamp": env.WEBHOOK_TIMESTAMP, "webhook-signature": env.WEBHOOK_SIGNATURE };
    const now = env.WEBHOOK_NOW ? Number(env.WEBHOOK_NOW) : undefined;
    const event = verifyWebhook(env.WEBHOOK_SECRET ?? "", headers, readFileSync(process.argv[2] ?? "/dev/stdin"), now);
    const type = (event as { type?: unknown } | null)?.type;
    console.log(typeof type === "string" ? `verified ${type}` : "verified");
  } catch (error) {
    console.error(`rejected: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
