import { ProviderError, type Connector, type ProviderClient } from "@svc/core";
import { isObject } from "../json-fields.ts";
import { parseUltrahumanMetrics, ULTRAHUMAN_METRICS_FORMAT } from "./metrics.ts";
import { apiUrl, pullUltrahumanMetrics } from "./pull.ts";

/**
 * Ultrahuman Ring, Partner API (UltraSignal, https://vision.ultrahuman.com/developer-docs):
 * one answer per user day with sleep (stage totals), heart rate, HRV, steps, recovery index
 * and VO2 max. The API has no notifications: scheduled pulls only. See docs/providers.md ("Ultrahuman").
 */
export const provider: Connector = {
  slug: "ultrahuman",
  name: "Ultrahuman",
  kind: "oauth",
  dataTypes: ["activity", "heart", "recovery", "sleep"],
  keys: [
    { name: "CLIENT_ID", required: true, secret: false, env: "SVC_ULTRAHUMAN_CLIENT_ID" },
    { name: "CLIENT_SECRET", required: true, secret: true, env: "SVC_ULTRAHUMAN_CLIENT_SECRET" },
  ],
  applicationKeys: ["CLIENT_ID"],
  urls: {
    authorize: "https://auth.ultrahuman.com/authorise",
    token: "https://partner.ultrahuman.com/api/partners/oauth/token",
    api: "https://partner.ultrahuman.com/api/partners/v1",
    revoke: "https://partner.ultrahuman.com/api/partners/oauth/revoke",
  },
  oauth: {
    // profile for the user's id (user_info), ring_data for the ring's metrics; cgm_data is not asked (no glucose mapping yet).
    scopes: ["profile", "ring_data"],
    pkce: false,
    clientAuth: "client_secret_post",
    // Access tokens last a week; the documentation does not say a refresh answers a new refresh token.
    rotatesRefreshToken: false,
  },
  // One request per day: 30 days of history on connect.
  backfillDays: 30,
  // Figures are daily; a pull every 6 hours catches the night and the day's samples.
  pullIntervalMinutes: 360,
  // No numeric limit is published; this keeps one user's backfill (30 requests) well inside any.
  rateLimits: { user: { requests: 60, windowSeconds: 60 } },
  identify: identifyUser,
  pull: pullUltrahumanMetrics,
  parsers: { [ULTRAHUMAN_METRICS_FORMAT]: parseUltrahumanMetrics },
  async revoke(client, tokens) {
    const body = new URLSearchParams({ token: tokens.accessToken, client_id: client.keys.CLIENT_ID ?? "", client_secret: client.keys.CLIENT_SECRET ?? "" });
    await client.request(client.urls.revoke ?? "https://partner.ultrahuman.com/api/partners/oauth/revoke", { method: "POST", body, auth: "none" });
  },
};

/** GET /user_data/user_info (scope profile): the user's id, at the top of the answer or in its `data`. */
async function identifyUser(client: ProviderClient): Promise<{ providerUserId: string }> {
  const answer = await client.request(apiUrl(client.urls.api, "/user_data/user_info"));
  const info = isObject(answer) && isObject(answer.data) ? answer.data : answer;
  const id = isObject(info) ? idOf(info.user_id ?? info.id) : null;
  if (!id) throw new ProviderError("failed", "Ultrahuman named no user id for the grant.");
  return { providerUserId: id };
}

function idOf(value: unknown): string | null {
  if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return String(value);
  if (typeof value === "string" && /^[A-Za-z0-9_-]{1,100}$/.test(value)) return value;
  return null;
}
