import { ProviderError, type Connector, type ProviderClient, type ProviderTokens } from "@svc/core";
import { HUAWEI_WORKOUTS_FORMAT, parseHuaweiWorkouts } from "./activity-records.ts";
import { HUAWEI_DAILY_ACTIVITY_FORMAT, parseHuaweiDailyActivity } from "./daily-activity.ts";
import { isObject } from "./json.ts";
import { huaweiNotifications } from "./notifications.ts";
import { ACTIVITY_RECORD_SCOPE, DAILY_TYPES, HISTORY_SCOPE, PULL_PARTS, pullHuaweiHealth, READING_TYPES, SLEEP_SCOPE } from "./pull.ts";
import { HUAWEI_READINGS_FORMAT, parseHuaweiReadings } from "./readings.ts";
import { HUAWEI_SLEEP_FORMAT, parseHuaweiSleep } from "./sleep-records.ts";

/**
 * Huawei Health Kit cloud REST API (HUAWEI ID OAuth): daily steps, distance and calories,
 * heart rate, resting heart rate, HRV, SpO2, blood pressure, weight and body temperature,
 * sleep records with their stages, and activity records (workouts) from the user's Huawei
 * Health app and wearables. Pulled on a schedule; Health Kit's signed data event
 * notifications, when an application has subscription records, pull the named user sooner.
 * See docs/providers.md ("Huawei Health").
 */
export const provider: Connector = {
  slug: "huawei_health",
  name: "Huawei Health",
  kind: "oauth",
  dataTypes: ["activity", "heart", "vitals", "body", "sleep", "workouts"],
  keys: [
    // The App ID of the project in AppGallery Connect (HUAWEI Developers), and its App Secret.
    { name: "CLIENT_ID", required: true, secret: false, env: "SVC_HUAWEI_HEALTH_CLIENT_ID" },
    { name: "CLIENT_SECRET", required: true, secret: true, env: "SVC_HUAWEI_HEALTH_CLIENT_SECRET" },
    // The subscriber Secret of the Health Kit console (Base64): verifies event notifications.
    { name: "SUBSCRIBER_SECRET", required: false, secret: true, env: "SVC_HUAWEI_HEALTH_SUBSCRIBER_SECRET" },
  ],
  applicationKeys: ["CLIENT_ID"],
  checkKeys: (keys) =>
    keys.SUBSCRIBER_SECRET !== undefined && !/^[A-Za-z0-9+/]+={0,2}$/.test(keys.SUBSCRIBER_SECRET) ? "SUBSCRIBER_SECRET is the subscriber Secret of the Health Kit console, in Base64." : null,
  urls: {
    authorize: "https://oauth-login.cloud.huawei.com/oauth2/v3/authorize",
    token: "https://oauth-login.cloud.huawei.com/oauth2/v3/token",
    api: "https://health-api.cloud.huawei.com/healthkit",
    revoke: "https://oauth-login.cloud.huawei.com/oauth2/v3/revoke",
    tokenInfo: "https://api.cloud.huawei.com/rest.php",
  },
  oauth: {
    // `openid` names the user (getTokenInfo's open_id); the rest are Health Kit scopes, each approved for the app in the console.
    scopes: ["openid", ...new Set([...DAILY_TYPES, ...READING_TYPES].map((t) => t.scope)), SLEEP_SCOPE, ACTIVITY_RECORD_SCOPE, HISTORY_SCOPE],
    pkce: false,
    clientAuth: "client_secret_post",
    // Without access_type=offline HUAWEI ID answers no refresh token.
    authorizeParams: () => ({ access_type: "offline" }),
    // A refresh answers a new access token; the refresh token stays (180 days).
    rotatesRefreshToken: false,
  },
  // Statistics and activity records come 31 days a request, sleep records a week, details a day: 30 days is at least 37 calls.
  backfillDays: 30,
  // Health Kit's cloud data lags the watch by minutes to hours (its "query timeliness").
  pullIntervalMinutes: 360,
  // Health Kit publishes no per-app quota; a 429 pauses the application with its Retry-After.
  rateLimits: {},
  notificationTypes: PULL_PARTS,
  identify: identifyUser,
  pull: pullHuaweiHealth,
  parsers: {
    [HUAWEI_DAILY_ACTIVITY_FORMAT]: parseHuaweiDailyActivity,
    [HUAWEI_READINGS_FORMAT]: parseHuaweiReadings,
    [HUAWEI_SLEEP_FORMAT]: parseHuaweiSleep,
    [HUAWEI_WORKOUTS_FORMAT]: parseHuaweiWorkouts,
  },
  notifications: huaweiNotifications,
  async revoke(client, tokens) {
    // Revoking the refresh token ends the grant; the access token is what is left without one.
    const token = tokens.refreshToken ?? tokens.accessToken;
    await client.request(client.urls.revoke ?? "", { method: "POST", auth: "none", body: new URLSearchParams({ token }) });
  },
};

/** HUAWEI ID's getTokenInfo: the user's OpenID for this app (`open_id`), asked for with `open_id=OPENID`. */
async function identifyUser(client: ProviderClient, tokens: ProviderTokens): Promise<{ providerUserId: string }> {
  const url = new URL(client.urls.tokenInfo ?? "");
  url.searchParams.set("nsp_fmt", "JSON");
  url.searchParams.set("nsp_svc", "huawei.oauth2.user.getTokenInfo");
  const info = await client.request(url, { method: "POST", auth: "none", body: new URLSearchParams({ open_id: "OPENID", access_token: tokens.accessToken }) });
  const openId = isObject(info) && typeof info.open_id === "string" ? info.open_id : "";
  if (openId.length === 0 || openId.length > 256 || /[\s\u0000-\u001f]/.test(openId)) throw new ProviderError("failed", "HUAWEI ID named no OpenID for the grant.");
  return { providerUserId: openId };
}
