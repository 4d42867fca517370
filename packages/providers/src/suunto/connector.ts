import { ProviderError, type Connector, type ProviderTokens } from "@svc/core";
import { parseSuuntoActivitySamples, SUUNTO_ACTIVITY_SAMPLES_FORMAT } from "./activity-samples.ts";
import { parseSuuntoDailyActivity, SUUNTO_DAILY_ACTIVITY_FORMAT } from "./daily-activity.ts";
import { suuntoNotifications } from "./notifications.ts";
import { pullSuunto, SUUNTO_NOTIFICATION_TYPES } from "./pull.ts";
import { parseSuuntoRecovery, SUUNTO_RECOVERY_FORMAT } from "./recovery.ts";
import { parseSuuntoSleep, SUUNTO_SLEEP_FORMAT } from "./sleep.ts";
import { parseSuuntoWorkout, SUUNTO_WORKOUT_FORMAT } from "./workout.ts";

/**
 * Suunto Cloud API (API Zone): workouts with their FIT files (routes, laps, heart rate through
 * the activity-file pipeline), daily steps and energy, 24/7 heart rate, HRV and SpO2, sleeps
 * and body resources, notified by the application's webhook (HMAC-signed). Every API call
 * carries the application's subscription key. See docs/providers.md ("Suunto").
 */
export const provider: Connector = {
  slug: "suunto",
  name: "Suunto",
  kind: "push",
  dataTypes: ["workouts", "heart", "activity", "sleep", "recovery", "vitals"],
  keys: [
    { name: "CLIENT_ID", required: true, secret: false, env: "SVC_SUUNTO_CLIENT_ID" },
    { name: "CLIENT_SECRET", required: true, secret: true, env: "SVC_SUUNTO_CLIENT_SECRET" },
    { name: "SUBSCRIPTION_KEY", required: true, secret: true, env: "SVC_SUUNTO_SUBSCRIPTION_KEY" },
    { name: "NOTIFICATION_SECRET", required: false, secret: true, env: "SVC_SUUNTO_NOTIFICATION_SECRET" },
  ],
  applicationKeys: ["CLIENT_ID"],
  urls: {
    authorize: "https://cloudapi-oauth.suunto.com/oauth/authorize",
    token: "https://cloudapi-oauth.suunto.com/oauth/token",
    api: "https://cloudapi.suunto.com",
    deauthorize: "https://cloudapi-oauth.suunto.com/oauth/deauthorize",
  },
  oauth: {
    // Suunto's authorize endpoint names no scopes: the grant covers the application's APIs.
    scopes: [],
    pkce: false,
    clientAuth: "client_secret_basic",
    // A refresh answers a new access and refresh token.
    rotatesRefreshToken: true,
  },
  // Daily statistics are asked 28 days at a time (Suunto's longest interval), 24/7 samples 14; a workout costs its list page share and its file.
  backfillDays: 30,
  // The webhook brings new workouts and 24/7 data; the daily pull catches events that were lost.
  pullIntervalMinutes: 1440,
  // Suunto publishes no request quota (it is set per subscription at review): a 429 pauses the application with its Retry-After.
  rateLimits: {},
  notificationTypes: SUUNTO_NOTIFICATION_TYPES,
  identify: async (_client, tokens) => ({ providerUserId: usernameOf(tokens) }),
  pull: pullSuunto,
  parsers: {
    [SUUNTO_WORKOUT_FORMAT]: parseSuuntoWorkout,
    [SUUNTO_DAILY_ACTIVITY_FORMAT]: parseSuuntoDailyActivity,
    [SUUNTO_ACTIVITY_SAMPLES_FORMAT]: parseSuuntoActivitySamples,
    [SUUNTO_SLEEP_FORMAT]: parseSuuntoSleep,
    [SUUNTO_RECOVERY_FORMAT]: parseSuuntoRecovery,
  },
  notifications: suuntoNotifications,
  async revoke(client) {
    const url = new URL(client.urls.deauthorize ?? "");
    url.searchParams.set("client_id", client.keys.CLIENT_ID ?? "");
    await client.request(url, { response: "bytes" });
  },
};

/**
 * The Suunto username: the token answer's `user`, else the access token's `user` claim (the
 * token is a JWT; it comes straight from the token endpoint, so its claims are read, not
 * verified). Webhook events name the user by it.
 */
function usernameOf(tokens: ProviderTokens): string {
  const fromAnswer = tokens.raw.user;
  if (typeof fromAnswer === "string" && validUsername(fromAnswer)) return fromAnswer;
  const claims = jwtClaims(tokens.accessToken);
  if (claims && typeof claims.user === "string" && validUsername(claims.user)) return claims.user;
  throw new ProviderError("failed", "Suunto named no username for the grant.");
}

function validUsername(value: string): boolean {
  return value.length > 0 && value.length <= 128 && !/[\s\u0000-\u001f]/.test(value);
}

function jwtClaims(token: string): Record<string, unknown> | null {
  const part = token.split(".")[1];
  if (!part) return null;
  try {
    const claims: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
    return typeof claims === "object" && claims !== null && !Array.isArray(claims) ? (claims as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
