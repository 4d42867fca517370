import { ProviderError, type Connector, type PullContext } from "@svc/core";
import { DEMO_CLIENT_ID, DEMO_COLLECTIONS, DEMO_FORMATS, DEMO_MAX_WINDOW_DAYS, DEMO_SLUG, type DemoCollection } from "./demo-api.ts";
import { demoParsers } from "./parsers.ts";

const DAY_MS = 86_400_000;

/**
 * The built-in demo provider: the instance itself serves its consent page, OAuth endpoints
 * and API under /demo (apps/server/src/demo), with generated data of a made-up person, so a
 * tenant can try connect, backfill, reads, webhooks and erasure with no outside account.
 */
export const provider: Connector = {
  slug: DEMO_SLUG,
  name: "Demo",
  kind: "oauth",
  builtIn: true,
  dataTypes: ["activity", "heart", "sleep", "body", "workouts", "vitals"],
  keys: [],
  applicationKeys: [],
  urls: {
    authorize: "{public_url}/demo/oauth/authorize",
    token: "{public_url}/demo/oauth/token",
    api: "{public_url}/demo/api",
    revoke: "{public_url}/demo/oauth/revoke",
  },
  oauth: {
    scopes: DEMO_COLLECTIONS,
    pkce: true,
    // A public client (client_id `demo`, the slug, as for every built-in provider) with PKCE: no secret is sent.
    clientAuth: "client_secret_post",
    rotatesRefreshToken: true,
  },
  // A month: enough to fill every read route; the demo API has data for any window.
  backfillDays: 30,
  pullIntervalMinutes: 60,
  // The instance serves it; a generous cap only keeps a runaway loop from hogging it.
  rateLimits: { user: { requests: 600, windowSeconds: 60 } },

  async identify(client) {
    const profile = await client.request(`${client.urls.api}/v1/profile`);
    const userId = (profile as { user_id?: unknown } | null)?.user_id;
    if (typeof userId !== "string" || userId === "") throw new ProviderError("failed", "The demo profile has no user_id.");
    return { providerUserId: userId };
  },

  async pull(context) {
    for (const collection of collectionsToPull(context)) {
      for (const chunk of windowChunks(context.window)) {
        const url = new URL(`${context.urls.api}/v1/${collection}`);
        url.searchParams.set("start", chunk.start.toISOString());
        url.searchParams.set("end", chunk.end.toISOString());
        const page = (await context.request(url)) as { data?: unknown } | null;
        if (!Array.isArray(page?.data)) throw new ProviderError("failed", `The demo ${collection} answer has no data list.`);
        if (page.data.length > 0) await context.store(DEMO_FORMATS[collection], page);
      }
    }
  },

  parsers: demoParsers,

  async revoke(client, tokens) {
    const url = client.urls.revoke;
    if (!url) return;
    const body = new URLSearchParams({ token: tokens.refreshToken ?? tokens.accessToken, client_id: DEMO_CLIENT_ID });
    await client.request(url, { method: "POST", auth: "none", body });
  },
};

/** The collections the grant's scopes allow (all when the scopes are unknown), or the one a run names. */
function collectionsToPull(context: PullContext): DemoCollection[] {
  const granted = DEMO_COLLECTIONS.filter((collection) => context.scopes.length === 0 || context.scopes.includes(collection));
  return context.dataType ? granted.filter((collection) => collection === context.dataType) : granted;
}

/** The window in pieces of at most DEMO_MAX_WINDOW_DAYS days (the API's limit per request). */
export function windowChunks(window: { start: Date; end: Date }): Array<{ start: Date; end: Date }> {
  const chunks: Array<{ start: Date; end: Date }> = [];
  for (let start = window.start.getTime(); start < window.end.getTime(); start += DEMO_MAX_WINDOW_DAYS * DAY_MS) {
    chunks.push({ start: new Date(start), end: new Date(Math.min(start + DEMO_MAX_WINDOW_DAYS * DAY_MS, window.end.getTime())) });
  }
  return chunks;
}
