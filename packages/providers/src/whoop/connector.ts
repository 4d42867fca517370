import { ProviderError, type Connector } from "@svc/core";
import { apiBase, pullWhoop } from "./collections.ts";
import { parseCycle } from "./cycle.ts";
import { idOf, isObject } from "./documents.ts";
import { parseRecovery } from "./recovery.ts";
import { parseWhoopSleep } from "./sleep.ts";
import { handleWhoopNotification, parseWhoopDeletion, WHOOP_DELETION_FORMAT, WHOOP_NOTIFICATION_TYPES } from "./webhook.ts";
import { parseWhoopWorkout } from "./workout.ts";

/**
 * WHOOP, developer API v2 (https://developer.whoop.com/api): physiological cycles (strain,
 * energy), recoveries, sleeps and workouts, with webhooks for sleep, workout and recovery.
 */
export const provider: Connector = {
  slug: "whoop",
  name: "WHOOP",
  kind: "push",
  dataTypes: ["activity", "heart", "recovery", "sleep", "workouts", "vitals"],
  keys: [
    { name: "CLIENT_ID", required: true, secret: false, env: "SVC_WHOOP_CLIENT_ID" },
    { name: "CLIENT_SECRET", required: true, secret: true, env: "SVC_WHOOP_CLIENT_SECRET" },
  ],
  applicationKeys: ["CLIENT_ID"],
  urls: {
    authorize: "https://api.prod.whoop.com/oauth/oauth2/auth",
    token: "https://api.prod.whoop.com/oauth/oauth2/token",
    api: "https://api.prod.whoop.com/developer",
  },
  oauth: {
    // `offline` is what gives a refresh token. Body measurements (height, weight) carry no
    // time of measurement and are not mapped, so read:body_measurement is not asked for.
    scopes: ["offline", "read:recovery", "read:cycles", "read:sleep", "read:workout", "read:profile"],
    pkce: false,
    clientAuth: "client_secret_post",
    // Each refresh answers a new refresh token; the old one stops working.
    rotatesRefreshToken: true,
  },
  // WHOOP keeps the whole history; a year is about 60 requests of 25 records (the app's
  // 10,000 requests a day leave room for ~150 backfills a day besides the scheduled pulls).
  backfillDays: 365,
  // Webhooks bring sleeps, recoveries and workouts; cycles (day strain, energy) have none.
  pullIntervalMinutes: 240,
  // 100 requests a minute and 10,000 a day per application; the minute is the one tracked here.
  rateLimits: { app: { requests: 100, windowSeconds: 60 } },
  notificationTypes: WHOOP_NOTIFICATION_TYPES,
  async identify(client) {
    const profile = await client.request(`${apiBase(client.urls.api)}/v2/user/profile/basic`);
    const id = isObject(profile) ? idOf(profile.user_id) : null;
    if (!id) throw new ProviderError("failed", "GET /v2/user/profile/basic answered no user_id.");
    return { providerUserId: id };
  },
  pull: pullWhoop,
  parsers: {
    "whoop-cycle": parseCycle,
    "whoop-recovery": parseRecovery,
    "whoop-sleep": parseWhoopSleep,
    "whoop-workout": parseWhoopWorkout,
    [WHOOP_DELETION_FORMAT]: parseWhoopDeletion,
  },
  notifications: { handle: handleWhoopNotification },
  async revoke(client) {
    // Revokes the grant; WHOOP stops sending this user's webhooks to the app.
    await client.request(`${apiBase(client.urls.api)}/v2/user/access`, { method: "DELETE" });
  },
};
