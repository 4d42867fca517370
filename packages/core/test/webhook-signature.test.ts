import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { fixturePath } from "@svc/testing";
import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { signWebhook, webhookHeaders } from "../src/index.ts";

type SignVector = { secret: string; msg_id: string; timestamp: number; payload: string; expected_signature: string };
const vectors = JSON.parse(readFileSync(fixturePath("standard_webhooks_vectors.json"), "utf8")) as { sign_vectors: SignVector[] };

describe("Standard Webhooks signature", () => {
  it("reproduces the official sign vector, with and without the whsec_ prefix", () => {
    expect(vectors.sign_vectors.length).toBeGreaterThan(0);
    for (const vector of vectors.sign_vectors) {
      expect(signWebhook(vector.secret, vector.msg_id, vector.timestamp, vector.payload)).toBe(vector.expected_signature);
      const bare = vector.secret.replace(/^whsec_/, "");
      expect(signWebhook(bare, vector.msg_id, vector.timestamp, Buffer.from(vector.payload))).toBe(vector.expected_signature);
    }
  });

  it("signs headers the official library verifies, over the exact body bytes", () => {
    const secret = `whsec_${randomBytes(32).toString("base64")}`;
    const body = JSON.stringify({ id: "5d0c…", type: "tag.created", data: { note: "Grüße \u2028 🏃" } });
    const headers = webhookHeaders(secret, { id: "0b7a7c1e-8f1e-4a53-9a43-2b1d0c6f0e01", body });

    expect(headers["webhook-id"]).toBe("0b7a7c1e-8f1e-4a53-9a43-2b1d0c6f0e01");
    expect(Math.abs(Number(headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(2);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
    expect(() => new Webhook(`whsec_${randomBytes(32).toString("base64")}`).verify(body, headers)).toThrow();
  });

  it("puts the time of signing in the timestamp, as Unix seconds", () => {
    const headers = webhookHeaders("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", { id: "msg_p5jXN8AQM9LWM0D4loKWxJek", body: '{"test": 2432232314}' }, new Date(1614265330_999));
    expect(headers).toEqual({
      "webhook-id": "msg_p5jXN8AQM9LWM0D4loKWxJek",
      "webhook-timestamp": "1614265330",
      "webhook-signature": "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
    });
  });
});
