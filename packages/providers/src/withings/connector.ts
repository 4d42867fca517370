import { ProviderError, type Connector } from "@svc/core";
import { parseWithingsActivities, WITHINGS_ACTIVITIES_FORMAT } from "./activities.ts";
import { unwrapWithingsToken } from "./answers.ts";
import { WITHINGS_NOTIFICATION_APPLIS } from "./measure-types.ts";
import { parseWithingsMeasures, WITHINGS_MEASURES_FORMAT } from "./measures.ts";
import { withingsNotifications } from "./notifications.ts";
import { pullWithings } from "./pull.ts";
import { parseWithingsSleepSummaries, WITHINGS_SLEEP_SUMMARIES_FORMAT } from "./sleep-summaries.ts";
import { revokeWithings, subscribeWithings, unsubscribeWithings } from "./subscriptions.ts";
import { idOf } from "./values.ts";
import { parseWithingsWorkouts, WITHINGS_WORKOUTS_FORMAT } from "./workouts.ts";

/**
 * Withings Public Health Data API: OAuth 2.0 (its token endpoint takes `action=requesttoken`
 * and wraps the answer in `{status, body}`), measures, daily activity, workouts and sleep
 * summaries, and Notify subscriptions per user and category. See docs/providers.md.
 */
export const provider: Connector = {
  slug: "withings",
  name: "Withings",
  kind: "push",
  dataTypes: ["body", "vitals", "heart", "sleep", "recovery", "activity", "workouts"],
  keys: [
    { name: "CLIENT_ID", required: true, secret: false, env: "SVC_WITHINGS_CLIENT_ID" },
    { name: "CLIENT_SECRET", required: true, secret: true, env: "SVC_WITHINGS_CLIENT_SECRET" },
  ],
  applicationKeys: ["CLIENT_ID"],
  urls: {
    authorize: "https://account.withings.com/oauth2_user/authorize2",
    token: "https://wbsapi.withings.net/v2/oauth2",
    api: "https://wbsapi.withings.net",
  },
  oauth: {
    scopes: ["user.info", "user.metrics", "user.activity"],
    scopeSeparator: ",",
    pkce: false,
    clientAuth: "client_secret_post",
    tokenParams: { action: "requesttoken" },
    unwrapTokenResponse: unwrapWithingsToken,
    // Each refresh answers a new refresh token; the old one stops working 8 hours later.
    rotatesRefreshToken: true,
  },
  // Withings keeps a user's whole history and sets no window limit: a year of weigh-ins,
  // blood pressure, activity and nights, at a few requests per service (paged by `offset`).
  backfillDays: 365,
  // Notify announces new data; the scheduled pull only catches what a lost notification missed.
  pullIntervalMinutes: 240,
  // "Standard Withings API applications are limited to 120 requests per minute" (per application).
  rateLimits: { app: { requests: 120, windowSeconds: 60 } },
  notificationTypes: Object.keys(WITHINGS_NOTIFICATION_APPLIS),
  async identify(_client, tokens) {
    const providerUserId = idOf(tokens.raw.userid);
    if (!providerUserId) throw new ProviderError("failed", "Withings' token answer names no userid.");
    return { providerUserId };
  },
  pull: pullWithings,
  parsers: {
    [WITHINGS_MEASURES_FORMAT]: parseWithingsMeasures,
    [WITHINGS_SLEEP_SUMMARIES_FORMAT]: parseWithingsSleepSummaries,
    [WITHINGS_ACTIVITIES_FORMAT]: parseWithingsActivities,
    [WITHINGS_WORKOUTS_FORMAT]: parseWithingsWorkouts,
  },
  notifications: withingsNotifications,
  subscribe: subscribeWithings,
  unsubscribe: unsubscribeWithings,
  revoke: revokeWithings,
};
