import { ProviderError, type Connector, type ProviderClient } from "@svc/core";
import { apiUrl, idOf, isObject } from "./json.ts";
import { wahooNotifications } from "./notifications.ts";
import { pullWahooWorkouts } from "./pull.ts";
import { parseWahooWorkout, WAHOO_WORKOUT_FORMAT } from "./workout.ts";

/**
 * Wahoo Cloud API: workouts with their summaries and FIT files (routes, laps, heart rate,
 * cadence and power through the activity-file pipeline), notified by the application's
 * workout_summary webhook. See docs/providers.md ("Wahoo").
 */
export const provider: Connector = {
  slug: "wahoo",
  name: "Wahoo",
  kind: "push",
  dataTypes: ["workouts", "heart"],
  keys: [
    { name: "CLIENT_ID", required: true, secret: false, env: "SVC_WAHOO_CLIENT_ID" },
    { name: "CLIENT_SECRET", required: true, secret: true, env: "SVC_WAHOO_CLIENT_SECRET" },
    { name: "WEBHOOK_TOKEN", required: false, secret: true, env: "SVC_WAHOO_WEBHOOK_TOKEN" },
  ],
  applicationKeys: ["CLIENT_ID"],
  urls: {
    authorize: "https://api.wahooligan.com/oauth/authorize",
    token: "https://api.wahooligan.com/oauth/token",
    api: "https://api.wahooligan.com",
  },
  oauth: {
    // user_read for the user's id; offline_data for the webhook.
    scopes: ["user_read", "workouts_read", "offline_data"],
    pkce: true,
    clientAuth: "client_secret_post",
    // Refresh tokens are single use: a refresh answers a new one.
    rotatesRefreshToken: true,
  },
  // A workout costs the list page, maybe its summary, and its file, against 200 requests per 5 minutes.
  backfillDays: 30,
  // The webhook brings new workouts; the daily pull only catches events that were lost.
  pullIntervalMinutes: 1440,
  // Production apps' 5-minute limit; the hourly (1,000) and daily (5,000) ones, and sandbox apps', are in docs/providers.md.
  rateLimits: { app: { requests: 200, windowSeconds: 300 } },
  notificationTypes: ["workout_summary"],
  identify: identifyUser,
  pull: pullWahooWorkouts,
  parsers: { [WAHOO_WORKOUT_FORMAT]: parseWahooWorkout },
  notifications: wahooNotifications,
  async revoke(client) {
    await client.request(apiUrl(client.urls.api, "/v1/permissions"), { method: "DELETE" });
  },
};

/** GET /v1/user: the authenticated user's id. */
async function identifyUser(client: ProviderClient): Promise<{ providerUserId: string }> {
  const user = await client.request(apiUrl(client.urls.api, "/v1/user"));
  const id = isObject(user) ? idOf(user.id) : null;
  if (!id) throw new ProviderError("failed", "Wahoo named no user id for the grant.");
  return { providerUserId: id };
}
