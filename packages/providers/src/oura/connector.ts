import { ProviderError, type Connector } from "@svc/core";
import { apiBase, pullOura } from "./collections.ts";
import { parseDailyActivity, parseDailyReadiness, parseDailySleep, parseDailySpo2 } from "./daily.ts";
import { isObject, textOf } from "./documents.ts";
import { parseHeartrate } from "./heartrate.ts";
import { parseSleep } from "./sleep.ts";
import { ensureOuraSubscriptions } from "./subscriptions.ts";
import { handleOuraNotification, OURA_DELETION_FORMAT, OURA_NOTIFICATION_TYPES, parseOuraDeletion } from "./webhook.ts";
import { parseWorkout } from "./workout.ts";

/**
 * Oura Ring, API v2 (https://cloud.ouraring.com/v2/docs): daily activity, sleep and
 * readiness, sleep periods, SpO2, workouts and heart rate, with webhooks for updates.
 */
export const provider: Connector = {
  slug: "oura",
  name: "Oura",
  kind: "push",
  dataTypes: ["activity", "heart", "recovery", "sleep", "workouts", "vitals"],
  keys: [
    { name: "CLIENT_ID", required: true, secret: false, env: "SVC_OURA_CLIENT_ID" },
    { name: "CLIENT_SECRET", required: true, secret: true, env: "SVC_OURA_CLIENT_SECRET" },
    { name: "WEBHOOK_VERIFICATION_TOKEN", required: false, secret: true, env: "SVC_OURA_WEBHOOK_VERIFICATION_TOKEN" },
  ],
  applicationKeys: ["CLIENT_ID"],
  urls: {
    authorize: "https://cloud.ouraring.com/oauth/authorize",
    token: "https://api.ouraring.com/oauth/token",
    api: "https://api.ouraring.com",
    revoke: "https://api.ouraring.com/oauth/revoke",
  },
  oauth: {
    // personal_info (the user's id) needs no scope; `spo2Daily` is the SpO2 scope's current name.
    scopes: ["daily", "heartrate", "workout", "spo2Daily"],
    pkce: false,
    clientAuth: "client_secret_post",
    // Oura's refresh tokens are single use: each refresh answers a new one.
    rotatesRefreshToken: true,
  },
  // Oura keeps the whole history; a year is backfilled (about 90 requests, 30-day ranges).
  backfillDays: 365,
  // Webhooks bring sleep, readiness, activity, SpO2 and workouts; heart rate has none, so it
  // comes with the scheduled pulls.
  pullIntervalMinutes: 180,
  // "5000 requests per 5-minute period" (per access token; the per-application ceiling is not published).
  rateLimits: { user: { requests: 5000, windowSeconds: 300 } },
  notificationTypes: OURA_NOTIFICATION_TYPES,
  async identify(client) {
    const info = await client.request(`${apiBase(client.urls.api)}/v2/usercollection/personal_info`);
    const id = isObject(info) ? textOf(info.id) : null;
    if (!id) throw new ProviderError("failed", "GET /v2/usercollection/personal_info answered no user id.");
    return { providerUserId: id };
  },
  pull: pullOura,
  parsers: {
    "oura-daily_activity": parseDailyActivity,
    "oura-daily_sleep": parseDailySleep,
    "oura-daily_readiness": parseDailyReadiness,
    "oura-daily_spo2": parseDailySpo2,
    "oura-sleep": parseSleep,
    "oura-workout": parseWorkout,
    "oura-heartrate": parseHeartrate,
    [OURA_DELETION_FORMAT]: parseOuraDeletion,
  },
  notifications: { handle: handleOuraNotification },
  subscribe: (client, context) => ensureOuraSubscriptions(client, context.callbackUrl),
  async revoke(client, tokens) {
    const url = new URL(client.urls.revoke ?? "https://api.ouraring.com/oauth/revoke");
    url.searchParams.set("access_token", tokens.accessToken);
    await client.request(url, { auth: "none" });
  },
};
