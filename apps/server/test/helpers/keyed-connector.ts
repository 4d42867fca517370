import { createHmac, timingSafeEqual } from "node:crypto";
import { emptyParsedRecords, providerCatalogOf, type Connector, type InboundAnswer, type ProviderCatalog } from "@svc/core";
import { PROVIDER_REGISTRY } from "@svc/providers";

/**
 * A push provider made up for tests of keys, switches and notifications, with every key
 * rule a real one has: a required public CLIENT_ID, a required secret CLIENT_SECRET, an
 * optional REGION that names the application too (eu or us only, 422 otherwise). Its
 * notifications are signed: `x-acme-signature` is the hex HMAC-SHA256 of the raw body under
 * CLIENT_SECRET. A GET with `challenge` is the subscription handshake; a body with
 * `revoked: true` says the user revoked access.
 */
const testConnector = (slug: string, name: string): Connector => ({
  slug,
  name,
  kind: "push",
  dataTypes: ["activity"],
  keys: [
    { name: "CLIENT_ID", required: true, secret: false, env: `SVC_${slug.toUpperCase()}_CLIENT_ID` },
    { name: "CLIENT_SECRET", required: true, secret: true, env: `SVC_${slug.toUpperCase()}_CLIENT_SECRET` },
    { name: "REGION", required: false, secret: false, env: `SVC_${slug.toUpperCase()}_REGION` },
  ],
  applicationKeys: ["CLIENT_ID", "REGION"],
  checkKeys: (keys) => (keys.REGION && !["eu", "us"].includes(keys.REGION) ? "REGION must be eu or us." : null),
  urls: { authorize: "https://acme.example/oauth/authorize", token: "https://acme.example/oauth/token", api: "https://api.acme.example" },
  oauth: { scopes: ["activity"], pkce: true, clientAuth: "client_secret_basic", rotatesRefreshToken: false },
  backfillDays: 30,
  pullIntervalMinutes: 60,
  rateLimits: {},
  notificationTypes: ["activity"],
  identify: async () => ({ providerUserId: "acme-user" }),
  pull: async () => {},
  parsers: { [`${slug}-activity`]: () => emptyParsedRecords() },
  notifications: {
    handle(request, keySets): InboundAnswer {
      if (request.method === "GET") {
        return request.query.challenge ? { status: 200, body: { challenge: request.query.challenge } } : { status: 400 };
      }
      const signature = Buffer.from(request.headers["x-acme-signature"] ?? "", "hex");
      const signed = keySets.some((keys) => {
        const expected = createHmac("sha256", keys.CLIENT_SECRET ?? "").update(request.rawBody).digest();
        return expected.length === signature.length && timingSafeEqual(expected, signature);
      });
      if (!signed) return { status: 401, body: "bad signature" };
      const event = JSON.parse(request.rawBody.toString("utf8")) as { user_id: string; type: string; data?: unknown; revoked?: boolean };
      if (event.revoked) return { status: 204, revoked: [{ providerUserId: event.user_id }] };
      if (event.data !== undefined) {
        return { status: 204, payloads: [{ providerUserId: event.user_id, format: `${slug}-activity`, payload: event.data }] };
      }
      return { status: 204, pulls: [{ providerUserId: event.user_id, dataType: event.type }] };
    },
  },
});

/** Configured from the console in tests. */
export const ACME = testConnector("acme", "Acme Health");
/** Configured by the environment in tests. */
export const ZETA = testConnector("zeta", "Zeta Fitness");

/** This build's providers, `acme` and `zeta`. */
export const TEST_CATALOG: ProviderCatalog = providerCatalogOf([...PROVIDER_REGISTRY.all(), ACME, ZETA]);

/** The signature `acme` expects on a notification body. */
export function acmeSignature(secret: string, body: string): string {
  return createHmac("sha256", secret).update(body).digest("hex");
}
