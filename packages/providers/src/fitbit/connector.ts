import { ProviderError, type Connector } from "@svc/core";
import { parseActivitySeries } from "./activity.ts";
import { apiUrl } from "./api.ts";
import { parseWeightLog } from "./body.ts";
import { parseActivityLog } from "./exercises.ts";
import { isObject, textOf } from "./json.ts";
import { parseBreathingRate, parseHrv, parseSkinTemperature, parseSpo2 } from "./nightly.ts";
import { FITBIT_COLLECTIONS, fitbitNotifications } from "./notifications.ts";
import { pullFitbit } from "./pull.ts";
import { parseSleep } from "./sleep.ts";
import { subscribe, unsubscribe } from "./subscriptions.ts";

/**
 * Fitbit Web API, which Google turns down in favour of the Google Health API (google_health;
 * dates in `retirement`, see docs/providers.md): daily activity, resting heart rate, exercises, sleep with stages, weight and the
 * nightly SpO2, HRV, breathing rate and skin temperature. Fitbit notifies svc through
 * per-user subscriptions; each notification is a ping that svc answers with a pull.
 */
export const provider: Connector = {
  slug: "fitbit",
  name: "Fitbit",
  kind: "push",
  dataTypes: ["activity", "heart", "recovery", "body", "sleep", "workouts", "vitals"],
  keys: [
    { name: "CLIENT_ID", required: true, secret: false, env: "SVC_FITBIT_CLIENT_ID" },
    { name: "CLIENT_SECRET", required: true, secret: true, env: "SVC_FITBIT_CLIENT_SECRET" },
    { name: "SUBSCRIBER_VERIFICATION_CODE", required: false, secret: true, env: "SVC_FITBIT_SUBSCRIBER_VERIFICATION_CODE" },
    { name: "SUBSCRIBER_ID", required: false, secret: false, env: "SVC_FITBIT_SUBSCRIBER_ID" },
  ],
  applicationKeys: ["CLIENT_ID"],
  urls: {
    authorize: "https://www.fitbit.com/oauth2/authorize",
    token: "https://api.fitbit.com/oauth2/token",
    api: "https://api.fitbit.com",
    revoke: "https://api.fitbit.com/oauth2/revoke",
  },
  oauth: {
    scopes: ["activity", "heartrate", "sleep", "weight", "oxygen_saturation", "respiratory_rate", "temperature", "profile"],
    pkce: true,
    clientAuth: "client_secret_basic",
    rotatesRefreshToken: true,
  },
  backfillDays: 90,
  pullIntervalMinutes: 360,
  rateLimits: { user: { requests: 150, windowSeconds: 3600 } },
  notificationTypes: FITBIT_COLLECTIONS,
  retirement: {
    api: "Fitbit Web API",
    supportEndsOn: "2026-09-30",
    turnedOffOn: "2026-11-02",
    replacement: "google_health",
    source: "https://developers.google.com/health/about",
  },

  async identify(client, tokens) {
    // The token answer names the user (`user_id`); the profile is asked only when it does not.
    const fromToken = textOf(tokens.raw.user_id, 64);
    if (fromToken) return { providerUserId: fromToken };
    const profile = await client.request(apiUrl(client.urls.api, "/1/user/-/profile.json"));
    const encodedId = isObject(profile) && isObject(profile.user) ? textOf(profile.user.encodedId, 64) : null;
    if (!encodedId) throw new ProviderError("failed", "Fitbit's profile answer names no encodedId.");
    return { providerUserId: encodedId };
  },

  pull: pullFitbit,

  parsers: {
    "fitbit-activity-series": parseActivitySeries,
    "fitbit-activity-log": parseActivityLog,
    "fitbit-sleep": parseSleep,
    "fitbit-weight": parseWeightLog,
    "fitbit-spo2": parseSpo2,
    "fitbit-hrv": parseHrv,
    "fitbit-br": parseBreathingRate,
    "fitbit-temp-skin": parseSkinTemperature,
  },

  notifications: fitbitNotifications,
  subscribe,
  unsubscribe,

  /** POST /oauth2/revoke with the application's basic credentials; revoking one token ends the whole grant. */
  async revoke(client, tokens) {
    const token = tokens.refreshToken ?? tokens.accessToken;
    await client.request(client.urls.revoke ?? "https://api.fitbit.com/oauth2/revoke", { method: "POST", auth: "basic", body: new URLSearchParams({ token }) });
  },
};
