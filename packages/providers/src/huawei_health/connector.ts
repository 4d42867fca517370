import { ProviderError, type Connector, type ProviderClient, type ProviderTokens } from "@svc/core";
import { HUAWEI_DAILY_ACTIVITY_FORMAT, parseHuaweiDailyActivity } from "./daily-activity.ts";
import { isObject } from "./json.ts";
import { DAILY_TYPES, pullHuaweiHealth, READING_TYPES } from "./pull.ts";
import { HUAWEI_READINGS_FORMAT, parseHuaweiReadings } from "./readings.ts";

/**
 * Huawei Health Kit cloud REST API (HUAWEI ID OAuth): daily steps, distance and calories,
 * heart rate, SpO2, blood pressure, weight and body temperature from the user's Huawei Health
 * app and wearables. Pulled on a schedule: Health Kit's data event subscription needs an
 * enterprise developer account and per-user subscription records svc does not create yet.
 * See docs/providers.md ("Huawei Health").
 */
export const provider: Connector = {
  slug: "huawei_health",
  name: "Huawei Health",
  kind: "oauth",
  dataTypes: ["activity", "heart", "vitals", "body"],
  keys: [
    // The App ID of the project in AppGallery Connect (HUAWEI Developers), and its App Secret.
    { name: "CLIENT_ID", required: true, secret: false, env: "SVC_HUAWEI_HEALTH_CLIENT_ID" },
    { name: "CLIENT_SECRET", required: true, secret: true, env: "SVC_HUAWEI_HEALTH_CLIENT_SECRET" },
  ],
  applicationKeys: ["CLIENT_ID"],
  urls: {
    authorize: "https://oauth-login.cloud.huawei.com/oauth2/v3/authorize",
    token: "https://oauth-login.cloud.huawei.com/oauth2/v3/token",
    api: "https://health-api.cloud.huawei.com/healthkit",
    revoke: "https://oauth-login.cloud.huawei.com/oauth2/v3/revoke",
    tokenInfo: "https://api.cloud.huawei.com/rest.php",
  },
  oauth: {
    // `openid` names the user (getTokenInfo's open_id); the rest are Health Kit read scopes, each approved for the app in the console.
    scopes: ["openid", ...DAILY_TYPES.map((t) => t.scope), ...READING_TYPES.map((t) => t.scope)],
    pkce: false,
    clientAuth: "client_secret_post",
    // Without access_type=offline HUAWEI ID answers no refresh token.
    authorizeParams: () => ({ access_type: "offline" }),
    // A refresh answers a new access token; the refresh token stays (180 days).
    rotatesRefreshToken: false,
  },
  // Statistics come 31 days a request, details a day a request: 30 days is 31 calls.
  backfillDays: 30,
  // Health Kit's cloud data lags the watch by minutes to hours (its "query timeliness").
  pullIntervalMinutes: 360,
  // Health Kit publishes no per-app quota; a 429 pauses the application with its Retry-After.
  rateLimits: {},
  identify: identifyUser,
  pull: pullHuaweiHealth,
  parsers: { [HUAWEI_DAILY_ACTIVITY_FORMAT]: parseHuaweiDailyActivity, [HUAWEI_READINGS_FORMAT]: parseHuaweiReadings },
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
