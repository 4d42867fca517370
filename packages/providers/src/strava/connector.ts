import { ProviderError, type Connector, type ProviderClient, type ProviderTokens } from "@svc/core";
import { apiUrl, idOf, isObject } from "./json.ts";
import { parseStravaActivities } from "./parse-activities.ts";
import { parseStravaStreams } from "./parse-streams.ts";
import { pullStravaActivities } from "./pull.ts";
import { stravaNotifications } from "./webhook-events.ts";

/**
 * Strava API v3: activities (workouts with routes, heart rate, cadence and power streams),
 * notified by the application's webhook subscription. See docs/providers.md ("Strava").
 */
export const provider: Connector = {
  slug: "strava",
  name: "Strava",
  kind: "push",
  dataTypes: ["workouts", "heart"],
  keys: [
    { name: "CLIENT_ID", required: true, secret: false, env: "SVC_STRAVA_CLIENT_ID" },
    { name: "CLIENT_SECRET", required: true, secret: true, env: "SVC_STRAVA_CLIENT_SECRET" },
    { name: "WEBHOOK_VERIFY_TOKEN", required: false, secret: true, env: "SVC_STRAVA_WEBHOOK_VERIFY_TOKEN" },
    { name: "WEBHOOK_SUBSCRIPTION_ID", required: false, secret: false, env: "SVC_STRAVA_WEBHOOK_SUBSCRIPTION_ID" },
  ],
  applicationKeys: ["CLIENT_ID"],
  checkKeys(keys) {
    if (keys.CLIENT_ID !== undefined && !/^\d{1,20}$/.test(keys.CLIENT_ID)) return "CLIENT_ID must be the application's numeric Client ID (strava.com/settings/api).";
    if (keys.WEBHOOK_SUBSCRIPTION_ID && !/^\d{1,20}$/.test(keys.WEBHOOK_SUBSCRIPTION_ID)) return "WEBHOOK_SUBSCRIPTION_ID must be the numeric id Strava answered when the subscription was created.";
    return null;
  },
  urls: {
    authorize: "https://www.strava.com/oauth/authorize",
    token: "https://www.strava.com/oauth/token",
    api: "https://www.strava.com/api/v3",
    deauthorize: "https://www.strava.com/oauth/deauthorize",
  },
  oauth: {
    scopes: ["read", "activity:read_all"],
    scopeSeparator: ",",
    pkce: false,
    clientAuth: "client_secret_post",
    authorizeParams: () => ({ approval_prompt: "auto" }),
    // A refresh may answer a new refresh token; once it has, the older one stops working.
    rotatesRefreshToken: true,
  },
  // Every activity costs a streams request against 100 reads per 15 minutes for the whole application.
  backfillDays: 30,
  // Webhook events bring new activities; the daily pull only catches events that were lost.
  pullIntervalMinutes: 1440,
  // The read ("non-upload") limit; the daily 1,000 reads cannot be said here (docs/providers.md).
  rateLimits: { app: { requests: 100, windowSeconds: 900 } },
  notificationTypes: ["activity"],
  identify: identifyAthlete,
  pull: pullStravaActivities,
  parsers: {
    "strava-activities": parseStravaActivities,
    "strava-activity-streams": parseStravaStreams,
  },
  notifications: stravaNotifications,
  async revoke(client, tokens) {
    const deauthorize = client.urls.deauthorize;
    if (!deauthorize) return;
    await client.request(deauthorize, { method: "POST", body: new URLSearchParams({ access_token: tokens.accessToken }) });
  },
};

/** The token answer carries the athlete (`athlete.id`); GET /athlete when it does not. */
async function identifyAthlete(client: ProviderClient, tokens: ProviderTokens): Promise<{ providerUserId: string }> {
  const athlete = isObject(tokens.raw.athlete) ? tokens.raw.athlete : await client.request(apiUrl(client.urls.api, "/athlete"));
  const id = isObject(athlete) ? idOf(athlete.id) : undefined;
  if (!id) throw new ProviderError("failed", "Strava named no athlete id for the grant.");
  return { providerUserId: id };
}
