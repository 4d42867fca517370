import { ProviderError, type Connector } from "@svc/core";
import { isObject, textOf } from "./fields.ts";
import { garminNotifications } from "./notifications.ts";
import { pullGarmin } from "./pull.ts";
import { GARMIN_SUMMARY_TYPES } from "./summary-types.ts";

/**
 * Garmin Connect Developer Program, Health API and Activity API (OAuth 2.0 with PKCE): daily
 * summaries, epochs, sleep, body composition, stress and Body Battery, VO2 max, SpO2,
 * respiration, HRV and activities, delivered by ping or push notifications. See
 * docs/providers.md ("Garmin").
 */
export const provider: Connector = {
  slug: "garmin",
  name: "Garmin",
  kind: "push",
  dataTypes: ["activity", "heart", "sleep", "body", "recovery", "vitals", "workouts"],
  keys: [
    { name: "CLIENT_ID", required: true, secret: false, env: "SVC_GARMIN_CLIENT_ID" },
    { name: "CLIENT_SECRET", required: true, secret: true, env: "SVC_GARMIN_CLIENT_SECRET" },
    { name: "NOTIFICATION_TOKEN", required: false, secret: true, env: "SVC_GARMIN_NOTIFICATION_TOKEN" },
  ],
  applicationKeys: ["CLIENT_ID"],
  checkKeys(keys) {
    const token = keys.NOTIFICATION_TOKEN;
    if (token && !/^[A-Za-z0-9_-]{16,128}$/.test(token)) return "NOTIFICATION_TOKEN must be 16 to 128 letters, digits, '-' or '_' (it goes in the endpoint URL configured at Garmin).";
    return null;
  },
  urls: {
    authorize: "https://connect.garmin.com/oauth2Confirm",
    token: "https://diauth.garmin.com/di-oauth2-service/oauth/token",
    api: "https://apis.garmin.com/wellness-api/rest",
  },
  oauth: {
    // Garmin takes no scope parameter: the user picks what to share on Garmin's consent page.
    scopes: [],
    pkce: true,
    clientAuth: "client_secret_post",
    rotatesRefreshToken: true,
  },
  // Backfill requests are asynchronous and rate limited by days of data (evaluation keys: 100 days a minute for the application).
  backfillDays: 30,
  // Pings and pushes bring new data; the daily pull only asks Garmin to send the last day again.
  pullIntervalMinutes: 1440,
  // Evaluation keys: about 100 requests a minute for the application (production keys are raised by Garmin).
  rateLimits: { app: { requests: 100, windowSeconds: 60 } },
  notificationTypes: GARMIN_SUMMARY_TYPES.map((type) => type.name),
  async identify(client) {
    const answer = await client.request(new URL(`${client.urls.api.replace(/\/+$/, "")}/user/id`));
    const userId = isObject(answer) ? textOf(answer.userId, 64) : undefined;
    if (!userId) throw new ProviderError("failed", "GET /user/id named no Garmin user id.");
    return { providerUserId: userId };
  },
  pull: pullGarmin,
  parsers: Object.fromEntries(GARMIN_SUMMARY_TYPES.map((type) => [type.format, type.parse])),
  notifications: garminNotifications,
  async revoke(client) {
    await client.request(new URL(`${client.urls.api.replace(/\/+$/, "")}/user/registration`), { method: "DELETE" });
  },
};
