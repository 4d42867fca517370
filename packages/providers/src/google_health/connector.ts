import { ProviderError, type Connector } from "@svc/core";
import { ACTIVITY_SCOPE, apiUrl, METRICS_SCOPE, SETTINGS_SCOPE, SLEEP_SCOPE } from "./api.ts";
import { parseDailyRollups } from "./daily-rollups.ts";
import { parseDataPoints } from "./data-points.ts";
import { isObject, textOf } from "./json.ts";
import { pullGoogleHealth } from "./pull.ts";

/**
 * Google Health API v4, the successor of the Fitbit Web API: daily activity rollups,
 * heart rate, the nightly figures, weight, sleep and exercise, through Google OAuth with
 * offline access. svc pulls on a schedule.
 */
export const provider: Connector = {
  slug: "google_health",
  name: "Google Health",
  kind: "oauth",
  dataTypes: ["activity", "heart", "recovery", "body", "sleep", "workouts", "vitals"],
  keys: [
    { name: "CLIENT_ID", required: true, secret: false, env: "SVC_GOOGLE_HEALTH_CLIENT_ID" },
    { name: "CLIENT_SECRET", required: true, secret: true, env: "SVC_GOOGLE_HEALTH_CLIENT_SECRET" },
  ],
  applicationKeys: ["CLIENT_ID"],
  urls: {
    authorize: "https://accounts.google.com/o/oauth2/v2/auth",
    token: "https://oauth2.googleapis.com/token",
    api: "https://health.googleapis.com",
    revoke: "https://oauth2.googleapis.com/revoke",
  },
  oauth: {
    scopes: [ACTIVITY_SCOPE, METRICS_SCOPE, SLEEP_SCOPE, SETTINGS_SCOPE],
    pkce: true,
    clientAuth: "client_secret_post",
    // A refresh token only comes with offline access; prompt=consent asks again so a reconnect gets one too.
    authorizeParams: () => ({ access_type: "offline", prompt: "consent" }),
    rotatesRefreshToken: false,
  },
  backfillDays: 90,
  pullIntervalMinutes: 60,
  rateLimits: { app: { requests: 120_000, windowSeconds: 60 }, user: { requests: 300, windowSeconds: 60 } },

  async identify(client) {
    const identity = await client.request(apiUrl(client.urls.api, "/v4/users/me/identity"));
    const healthUserId = isObject(identity) ? textOf(identity.healthUserId, 63) : null;
    if (!healthUserId) throw new ProviderError("failed", "The Google Health identity answer names no healthUserId.");
    return { providerUserId: healthUserId };
  },

  pull: pullGoogleHealth,

  parsers: {
    "google_health-data-points": parseDataPoints,
    "google_health-daily-rollups": parseDailyRollups,
  },

  /** POST https://oauth2.googleapis.com/revoke; revoking the refresh token ends the grant. */
  async revoke(client, tokens) {
    const token = tokens.refreshToken ?? tokens.accessToken;
    await client.request(client.urls.revoke ?? "https://oauth2.googleapis.com/revoke", { method: "POST", auth: "none", body: new URLSearchParams({ token }) });
  },
};
