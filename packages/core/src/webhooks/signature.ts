// Standard Webhooks signing: `v1,` + base64 HMAC-SHA256 of `<id>.<timestamp>.<raw body>`,
// keyed by the base64-decoded part of the secret after `whsec_`.
import { createHmac } from "node:crypto";

const SECRET_PREFIX = "whsec_";

/** The HMAC key of a `whsec_…` secret (a bare base64 key is taken as well, as the reference libraries do). */
function signingKey(secret: string): Buffer {
  const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
  const key = Buffer.from(encoded, "base64");
  if (key.length === 0) throw new Error("the webhook secret holds no key");
  return key;
}

/** One `webhook-signature` entry: `v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`. */
export function signWebhook(secret: string, id: string, timestampSeconds: number, body: string | Uint8Array): string {
  const hmac = createHmac("sha256", signingKey(secret));
  hmac.update(`${id}.${timestampSeconds}.`, "utf8");
  hmac.update(body);
  return `v1,${hmac.digest("base64")}`;
}

/** The three Standard Webhooks headers of one attempt, signed at `now`. */
export function webhookHeaders(
  secret: string,
  message: { id: string; body: string | Uint8Array },
  now: Date = new Date(),
): Record<"webhook-id" | "webhook-timestamp" | "webhook-signature", string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    "webhook-id": message.id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signWebhook(secret, message.id, timestamp, message.body),
  };
}
