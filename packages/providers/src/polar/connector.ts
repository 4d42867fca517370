import { ProviderError, type Connector } from "@svc/core";
import { parsePolarActivities, POLAR_ACTIVITIES_FORMAT } from "./activities.ts";
import { accessLinkUrl, requestOrNull } from "./api.ts";
import { parsePolarContinuousHeartRate, POLAR_CONTINUOUS_HEART_RATE_FORMAT } from "./continuous-heart-rate.ts";
import { parsePolarExercises, POLAR_EXERCISES_FORMAT } from "./exercises.ts";
import { parsePolarNight, POLAR_NIGHTS_FORMAT } from "./nights.ts";
import { polarNotifications } from "./notifications.ts";
import { POLAR_DATA_TYPES, pullPolar } from "./pull.ts";

/**
 * Polar AccessLink v3: OAuth 2.0 (Polar Flow consent, Polar Remote token endpoint with basic
 * client authentication, an access token that does not expire and no refresh token), user
 * registration after consent, the non-transactional data endpoints, and one webhook per
 * application signed with WEBHOOK_SIGNATURE_KEY. See docs/providers.md.
 */
export const provider: Connector = {
  slug: "polar",
  name: "Polar",
  kind: "push",
  dataTypes: ["workouts", "sleep", "recovery", "heart", "activity"],
  keys: [
    { name: "CLIENT_ID", required: true, secret: false, env: "SVC_POLAR_CLIENT_ID" },
    { name: "CLIENT_SECRET", required: true, secret: true, env: "SVC_POLAR_CLIENT_SECRET" },
    // The webhook's signature_secret_key, shown once when the application's webhook is created.
    { name: "WEBHOOK_SIGNATURE_KEY", required: false, secret: true, env: "SVC_POLAR_WEBHOOK_SIGNATURE_KEY" },
  ],
  applicationKeys: ["CLIENT_ID"],
  urls: {
    authorize: "https://flow.polar.com/oauth2/authorization",
    token: "https://polarremote.com/v2/oauth2/token",
    api: "https://www.polaraccesslink.com",
  },
  oauth: {
    scopes: ["accesslink.read_all"],
    pkce: false,
    clientAuth: "client_secret_basic",
    rotatesRefreshToken: false,
  },
  // AccessLink keeps exercises 30 days and sleep and Nightly Recharge 28 days (daily activity
  // a year): the backfill takes what there is.
  backfillDays: 30,
  // Webhooks announce new data; the scheduled pull catches what a lost event missed.
  pullIntervalMinutes: 360,
  // Per client: 500 + 20 per registered user each 15 minutes (and 5000 + 100 per user a day);
  // the floor of the short-term limit.
  rateLimits: { app: { requests: 500, windowSeconds: 900 } },
  notificationTypes: POLAR_DATA_TYPES,
  /**
   * The user is `x_user_id` of the token answer. AccessLink gives a user's data only once the
   * partner registered them (Register user, member-id: that same id); 409 means already done.
   */
  async identify(client, tokens) {
    const userId = idOf(tokens.raw.x_user_id);
    if (!userId) throw new ProviderError("failed", "Polar's token answer names no x_user_id.");
    try {
      await client.request(accessLinkUrl(client.urls.api, "/v3/users"), { method: "POST", body: { "member-id": userId } });
    } catch (error) {
      if (!(error instanceof ProviderError && error.status === 409)) throw error;
    }
    return { providerUserId: userId };
  },
  pull: pullPolar,
  parsers: {
    [POLAR_EXERCISES_FORMAT]: parsePolarExercises,
    [POLAR_NIGHTS_FORMAT]: parsePolarNight,
    [POLAR_ACTIVITIES_FORMAT]: parsePolarActivities,
    [POLAR_CONTINUOUS_HEART_RATE_FORMAT]: parsePolarContinuousHeartRate,
  },
  notifications: polarNotifications,
  /** Delete user: de-registers the user, which also revokes the access token. */
  async revoke(client, tokens) {
    const userId = idOf(tokens.raw.x_user_id);
    if (userId) await requestOrNull(client, accessLinkUrl(client.urls.api, `/v3/users/${userId}`), { method: "DELETE" });
  },
};

function idOf(value: unknown): string | null {
  if (typeof value === "number" && Number.isSafeInteger(value) && value > 0) return String(value);
  if (typeof value === "string" && /^\d{1,20}$/.test(value)) return value;
  return null;
}
