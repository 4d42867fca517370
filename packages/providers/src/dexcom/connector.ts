import { ProviderError, type Connector } from "@svc/core";
import { apiBase, apiUrl, ENVIRONMENTS, windowPieces } from "./api.ts";
import { parseEgvs } from "./egvs.ts";
import { parseEvents } from "./events.ts";
import { isObject, textOf } from "./json.ts";

/**
 * Dexcom API v3: estimated glucose values of a CGM and the user's entries (carbs,
 * insulin, fingersticks). OAuth 2.0 with single-use refresh tokens; no notifications,
 * so svc pulls on a schedule.
 */
export const provider: Connector = {
  slug: "dexcom",
  name: "Dexcom",
  kind: "oauth",
  dataTypes: ["vitals", "nutrition"],
  keys: [
    { name: "CLIENT_ID", required: true, secret: false, env: "SVC_DEXCOM_CLIENT_ID" },
    { name: "CLIENT_SECRET", required: true, secret: true, env: "SVC_DEXCOM_CLIENT_SECRET" },
    { name: "ENVIRONMENT", required: true, secret: false, env: "SVC_DEXCOM_ENVIRONMENT" },
  ],
  applicationKeys: ["CLIENT_ID", "ENVIRONMENT"],
  checkKeys: (keys) =>
    (ENVIRONMENTS as readonly string[]).includes(keys.ENVIRONMENT ?? "") ? null : "ENVIRONMENT must be production or sandbox.",
  urls: {
    authorize: "https://api.dexcom.com/v2/oauth2/login",
    token: "https://api.dexcom.com/v2/oauth2/token",
    api: "https://api.dexcom.com",
    sandbox_api: "https://sandbox-api.dexcom.com",
  },
  oauth: {
    scopes: ["offline_access"],
    pkce: false,
    clientAuth: "client_secret_post",
    rotatesRefreshToken: true,
  },
  backfillDays: 90,
  pullIntervalMinutes: 60,
  rateLimits: { app: { requests: 60_000, windowSeconds: 3600 } },

  async identify(client) {
    const range = await client.request(apiUrl(apiBase(client), "/v3/users/self/dataRange"));
    const userId = isObject(range) ? textOf(range.userId, 128) : null;
    if (!userId) throw new ProviderError("failed", "Dexcom's dataRange answer names no userId.");
    return { providerUserId: userId };
  },

  async pull(context) {
    const base = apiBase(context);
    for (const piece of windowPieces(context.window)) {
      await context.store("dexcom-egvs", await context.request(apiUrl(base, "/v3/users/self/egvs", piece)));
      await context.store("dexcom-events", await context.request(apiUrl(base, "/v3/users/self/events", piece)));
    }
  },

  parsers: {
    "dexcom-egvs": parseEgvs,
    "dexcom-events": parseEvents,
  },
};
