import { readFileSync } from "node:fs";
import { openTokens, providerEnvPrefix, sealTokens } from "@svc/core";
import { PROVIDER_REGISTRY } from "@svc/providers";
import { waitUntil } from "@svc/testing";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser } from "../helpers/records.ts";
import { FAST_SYNC, SYNCTEST_ENV } from "../helpers/sync-provider.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { testSealer } from "../helpers/webhooks.ts";

// Each real connector's OAuth flow through the service: POST connections -> the authorize
// URL at the provider -> GET /oauth/{slug}/callback -> the provider's token answer (in its
// own shape) -> identify -> an active, healthy connection; then an expired access token is
// refreshed by a sync run and the API calls after it carry the new token. The providers'
// hosts are played by msw; data mapping is tested per connector in packages/providers/test.

const fixture = (provider: string, name: string) =>
  JSON.parse(readFileSync(new URL(`../../../../packages/providers/test/fixtures/${provider}/${name}`, import.meta.url), "utf8")) as Record<string, unknown>;

/** Access and refresh tokens of the n-th token answer of a provider. */
interface IssuedTokens {
  access: string;
  refresh: string;
  grant: "authorization_code" | "refresh_token";
}

interface ConnectorCase {
  slug: string;
  /** The application's client id at the provider (`<slug>-client-id` unless the provider wants another form). */
  clientId?: string;
  /** Keys besides CLIENT_ID / CLIENT_SECRET (SVC_<SLUG>_<NAME>). */
  keys?: Record<string, string>;
  /** Address names besides authorize/token/api to point at the fake API host (e.g. dexcom's sandbox_api). */
  apiUrlNames?: string[];
  /** The provider's token answer (what its token endpoint returns as JSON). */
  tokenAnswer(tokens: IssuedTokens): unknown;
  /** The provider's answer to one API request (identify, subscriptions, pulls): empty pages in its shape. */
  api(url: URL, method: string): Response;
  /** False when the provider issues no refresh token (its access tokens are long lived). */
  refreshes?: boolean;
  /** False when a refresh answers no new refresh token (the first one is kept). */
  refreshAnswersNewRefreshToken?: boolean;
}

const json = (body: unknown, status = 200) => HttpResponse.json(body as Record<string, unknown>, { status });
const noContent = () => new HttpResponse(null, { status: 204 });
const expiresAt = () => Math.floor(Date.now() / 1000) + 21_600;

const CASES: ConnectorCase[] = [
  {
    slug: "oura",
    tokenAnswer: ({ access, refresh }) => ({ ...fixture("oura", "token.json"), access_token: access, refresh_token: refresh }),
    api(url, method) {
      if (url.pathname.endsWith("/personal_info")) return json(fixture("oura", "personal_info.json"));
      if (url.pathname.startsWith("/v2/webhook/subscription")) return method === "GET" ? json([]) : json({ id: "sub-1", expiration_time: new Date(Date.now() + 86_400_000).toISOString() }, 201);
      return json({ data: [], next_token: null });
    },
  },
  {
    slug: "whoop",
    tokenAnswer: ({ access, refresh }) => ({ access_token: access, refresh_token: refresh, expires_in: 3600, scope: "offline read:recovery read:cycles read:sleep read:workout read:profile", token_type: "bearer" }),
    api(url) {
      if (url.pathname.endsWith("/v2/user/profile/basic")) return json({ user_id: 10129, email: "user@example.com", first_name: "Test", last_name: "User" });
      return json({ records: [], next_token: null });
    },
  },
  {
    slug: "withings",
    // Withings wraps every answer, the token one too, in {status, body}.
    tokenAnswer: ({ access, refresh }) => ({
      status: 0,
      body: { userid: 363, access_token: access, refresh_token: refresh, expires_in: 10800, scope: "user.info,user.metrics,user.activity", csrf_token: "csrf", token_type: "Bearer" },
    }),
    api: () => json({ status: 0, body: { measuregrps: [], series: [], activities: [], more: false, offset: 0 } }),
  },
  {
    slug: "polar",
    // Polar's access tokens last about a year and come without a refresh token; the user is x_user_id.
    tokenAnswer: ({ access }) => ({ access_token: access, token_type: "bearer", expires_in: 31535999, x_user_id: 48201937 }),
    api(url, method) {
      if (method === "POST" && url.pathname === "/v3/users") return json(fixture("polar", "register_user.json"));
      return noContent();
    },
    refreshes: false,
  },
  {
    slug: "strava",
    clientId: "52134",
    // The first answer carries the athlete (Strava's user); refresh answers do not.
    tokenAnswer: ({ access, refresh, grant }) => ({
      token_type: "Bearer",
      expires_at: expiresAt(),
      expires_in: 21600,
      refresh_token: refresh,
      access_token: access,
      ...(grant === "authorization_code" ? { athlete: { id: 134815, username: "test", firstname: "Test", lastname: "User" } } : {}),
    }),
    api: () => json([]),
  },
  {
    slug: "wahoo",
    // Wahoo's refresh tokens are single use: every token answer carries a new one.
    tokenAnswer: ({ access, refresh }) => ({ ...fixture("wahoo", "token.json"), access_token: access, refresh_token: refresh }),
    api(url) {
      if (url.pathname === "/v1/user") return json(fixture("wahoo", "user.json"));
      return json({ workouts: [], total: 0, page: 1, per_page: 30, order: "descending", sort: "starts" });
    },
  },
  {
    slug: "suunto",
    // Every API call carries the application's subscription key; the username is in the token answer.
    keys: { SUBSCRIPTION_KEY: "suunto-subscription-key" },
    tokenAnswer: ({ access, refresh }) => ({ ...fixture("suunto", "token.json"), access_token: access, refresh_token: refresh }),
    api(url) {
      if (url.pathname === "/v3/workouts") return json({ error: null, metadata: {}, payload: [] });
      return json([]);
    },
  },
  {
    slug: "ultrahuman",
    // The user's id comes from user_info; a day without data is an empty metric list.
    tokenAnswer: ({ access, refresh }) => ({ ...fixture("ultrahuman", "token.json"), access_token: access, refresh_token: refresh }),
    api(url) {
      if (url.pathname.endsWith("/user_data/user_info")) return json(fixture("ultrahuman", "user-info.json"));
      return json({ data: { metric_data: [] } });
    },
  },
  {
    slug: "huawei_health",
    clientId: "104857600",
    refreshAnswersNewRefreshToken: false,
    tokenAnswer: ({ access, refresh, grant }) => ({
      ...fixture("huawei_health", "token.json"),
      access_token: access,
      // HUAWEI ID answers a refresh with a new access token only.
      ...(grant === "authorization_code" ? { refresh_token: refresh } : { refresh_token: undefined }),
    }),
    api(url) {
      // getTokenInfo (the tokenInfo address, here the API host's root) names the user's open_id.
      if (url.pathname === "/") return json(fixture("huawei_health", "token-info.json"));
      return json({ group: [] });
    },
  },
  {
    slug: "garmin",
    tokenAnswer: ({ access, refresh }) => ({ ...fixture("garmin", "token-response.json"), access_token: access, refresh_token: refresh }),
    api(url) {
      if (url.pathname.endsWith("/user/id")) return json({ userId: "d3315b1072421d0dd7c8f6b8e1de4df8" });
      if (url.pathname.includes("/backfill/")) return new HttpResponse(null, { status: 202 });
      return json([]);
    },
  },
  {
    slug: "dexcom",
    keys: { ENVIRONMENT: "sandbox" },
    apiUrlNames: ["sandbox_api"],
    tokenAnswer: ({ access, refresh }) => ({ ...fixture("dexcom", "token.json"), access_token: access, refresh_token: refresh }),
    api(url) {
      if (url.pathname.endsWith("/dataRange")) return json(fixture("dexcom", "dataRange.json"));
      const recordType = url.pathname.endsWith("/egvs") ? "egv" : "event";
      return json({ recordType, recordVersion: "3.0", userId: "dexcom-user", records: [] });
    },
  },
  {
    slug: "fitbit",
    tokenAnswer: ({ access, refresh }) => ({ ...fixture("fitbit", "token.json"), access_token: access, refresh_token: refresh }),
    api(url, method) {
      if (url.pathname.includes("/apiSubscriptions/")) return method === "POST" ? json({ subscriptionId: "s1" }, 201) : noContent();
      if (url.pathname.endsWith("/profile.json")) return json(fixture("fitbit", "profile.json"));
      if (url.pathname.includes("/activities/list.json")) return json({ activities: [], pagination: { next: "", previous: "" } });
      return json({});
    },
  },
  {
    slug: "google_health",
    refreshAnswersNewRefreshToken: false,
    tokenAnswer: ({ access, refresh, grant }) => ({
      ...fixture("google_health", "token.json"),
      access_token: access,
      // Google answers a refresh without a new refresh token.
      ...(grant === "authorization_code" ? { refresh_token: refresh } : { refresh_token: undefined }),
    }),
    api(url, method) {
      if (url.pathname.endsWith("/identity")) return json(fixture("google_health", "identity.json"));
      if (url.pathname.endsWith("/settings")) return json(fixture("google_health", "settings.json"));
      if (method === "POST") return json({ rollupDataPoints: [] });
      return json({ dataPoints: [] });
    },
  },
];

const authorizeUrl = (slug: string) => `https://${slug}.auth.test/oauth/authorize`;
const tokenUrl = (slug: string) => `https://${slug}.auth.test/oauth/token`;
const apiUrl = (slug: string) => `https://${slug}.api.test`;

const clientIdOf = (entry: ConnectorCase) => entry.clientId ?? `${entry.slug}-client-id`;

const ENV: Record<string, string> = { SVC_ENCRYPTION_KEY: SYNCTEST_ENV.SVC_ENCRYPTION_KEY };
for (const entry of CASES) {
  const prefix = providerEnvPrefix(entry.slug);
  ENV[`${prefix}_CLIENT_ID`] = clientIdOf(entry);
  ENV[`${prefix}_CLIENT_SECRET`] = `${entry.slug}-client-secret`;
  for (const [name, value] of Object.entries(entry.keys ?? {})) ENV[`${prefix}_${name}`] = value;
  // Every address the connector declares goes to the fake hosts (revoke and the like to the API host).
  for (const name of Object.keys(PROVIDER_REGISTRY.connector(entry.slug)!.urls)) {
    ENV[`${prefix}_${name.toUpperCase()}_URL`] = name === "authorize" ? authorizeUrl(entry.slug) : name === "token" ? tokenUrl(entry.slug) : apiUrl(entry.slug);
  }
}

interface TokenRequest {
  form: URLSearchParams;
  authorization: string | null;
}
interface ApiRequest {
  url: URL;
  method: string;
  authorization: string | null;
}

/** What each fake provider saw. */
const seen = new Map(CASES.map((entry) => [entry.slug, { tokens: [] as TokenRequest[], api: [] as ApiRequest[], issued: 0 }]));

const msw = setupServer(
  ...CASES.flatMap((entry) => {
    const log = seen.get(entry.slug)!;
    return [
      http.post(tokenUrl(entry.slug), async ({ request }) => {
        const form = new URLSearchParams(await request.text());
        log.tokens.push({ form, authorization: request.headers.get("authorization") });
        const grant = form.get("grant_type") === "refresh_token" ? "refresh_token" : "authorization_code";
        const n = ++log.issued;
        return json(entry.tokenAnswer({ access: `${entry.slug}-access-${n}`, refresh: `${entry.slug}-refresh-${n}`, grant }));
      }),
      http.all(`${apiUrl(entry.slug)}/*`, ({ request }) => {
        const url = new URL(request.url);
        log.api.push({ url, method: request.method, authorization: request.headers.get("authorization") });
        return entry.api(url, request.method);
      }),
    ];
  }),
);

let svc: TestService;
let key: string;

beforeAll(async () => {
  msw.listen({ onUnhandledRequest: "bypass" });
  svc = await startTestService(ENV, { syncSettings: { ...FAST_SYNC, backfillQuotaShare: 1 } });
  key = (await svc.createTenant()).api_key;
});
afterAll(async () => {
  await svc?.stop();
  msw.close();
});

const OPEN_RUN = ["queued", "running", "retrying", "rate_limited"];

async function waitForRunsToFinish(userId: string, slug: string) {
  await waitUntil(
    async () => {
      const runs = await svc.db.syncRun.findMany({ where: { userId, provider: slug } });
      return runs.length > 0 && runs.every((run) => !OPEN_RUN.includes(run.status));
    },
    30_000,
    `the ${slug} runs`,
  );
}

/** Expires the stored access token (the sealed tokens and the row), syncs now and answers the finished run. */
async function syncWithExpiredToken(userId: string, slug: string) {
  const sealer = testSealer();
  const row = await svc.db.connection.findFirstOrThrow({ where: { userId, provider: slug } });
  const expired = new Date(Date.now() - 60_000);
  const sealedTokens = sealTokens(sealer, { ...openTokens(sealer, row.sealedTokens!), expiresAt: expired });
  await svc.db.connection.updateMany({ where: { id: row.id }, data: { sealedTokens, accessExpiresAt: expired } });
  const answer = await svc.call(`/v1/users/${userId}/connections/${slug}/sync`, { key, body: {} });
  expect(answer.status, answer.text).toBe(202);
  const path = `/v1/users/${userId}/sync-runs/${answer.body.id}`;
  await waitUntil(async () => !OPEN_RUN.includes((await svc.call(path, { key })).body.status), 30_000, `the ${slug} sync run`);
  return (await svc.call(path, { key })).body;
}

describe.each(CASES)("$slug", (entry) => {
  const { slug } = entry;
  const connector = PROVIDER_REGISTRY.connector(slug)!;
  const log = seen.get(slug)!;
  let userId: string;

  it("connects: authorize URL, callback, the provider's token answer, identify -> active and healthy", async () => {
    userId = await createUser(svc, key);
    const started = await svc.call(`/v1/users/${userId}/connections/${slug}`, { key, body: {} });
    expect(started.status, started.text).toBe(200);
    const url = new URL(started.body.authorize_url);
    expect(`${url.origin}${url.pathname}`).toBe(authorizeUrl(slug));
    const params = Object.fromEntries(url.searchParams);
    expect(params).toMatchObject({ client_id: clientIdOf(entry), redirect_uri: `${svc.url}/oauth/${slug}/callback`, response_type: "code" });
    expect(params.state).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const scopes = connector.oauth.scopes.join(connector.oauth.scopeSeparator ?? " ");
    if (scopes) expect(params.scope).toBe(scopes);
    else expect(params.scope ?? "").toBe("");
    if (connector.oauth.pkce) expect(params).toMatchObject({ code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/), code_challenge_method: "S256" });
    else expect(params.code_challenge).toBeUndefined();

    const callback = await fetch(`${svc.url}/oauth/${slug}/callback?${new URLSearchParams({ code: `${slug}-code`, state: params.state! })}`, { redirect: "manual" });
    const page = await callback.text();
    expect(callback.status, page).toBe(200);
    expect(page).toContain("You can close this window.");

    const exchange = log.tokens.at(-1)!;
    expect(exchange.form.get("grant_type")).toBe("authorization_code");
    expect(exchange.form.get("code")).toBe(`${slug}-code`);
    expect(exchange.form.get("redirect_uri")).toBe(`${svc.url}/oauth/${slug}/callback`);
    if (connector.oauth.pkce) expect(exchange.form.get("code_verifier")).toMatch(/^[A-Za-z0-9_-]{43,128}$/);
    if (connector.oauth.clientAuth === "client_secret_basic") {
      expect(exchange.authorization).toBe(`Basic ${Buffer.from(`${clientIdOf(entry)}:${slug}-client-secret`).toString("base64")}`);
    } else {
      expect(exchange.form.get("client_id")).toBe(clientIdOf(entry));
      expect(exchange.form.get("client_secret")).toBe(`${slug}-client-secret`);
    }

    const list = await svc.call(`/v1/users/${userId}/connections`, { key });
    expect(list.status, list.text).toBe(200);
    const connection = list.body.data.find((item: { provider: string }) => item.provider === slug);
    expect(connection).toMatchObject({ provider: slug, status: "active", health: { healthy: true } });
    const row = await svc.db.connection.findFirstOrThrow({ where: { userId, provider: slug } });
    expect(row.providerUserId).toBeTruthy();
    expect(row.sealedTokens).not.toContain(`${slug}-access-1`);
    await waitForRunsToFinish(userId, slug);
  });

  it("refreshes an expired access token in a sync run; the API calls after it carry the new token", async () => {
    const before = log.tokens.length;
    const apiBefore = log.api.length;
    const run = await syncWithExpiredToken(userId, slug);

    if (entry.refreshes === false) {
      // No refresh token: the long-lived access token goes on being used.
      expect(log.tokens.length).toBe(before);
      expect(run.status).toBe("succeeded");
      const calls = log.api.slice(apiBefore);
      expect(calls.length).toBeGreaterThan(0);
      expect(calls.every((call) => call.authorization === `Bearer ${slug}-access-1`)).toBe(true);
      return;
    }

    expect(run.status, JSON.stringify(run)).toBe("succeeded");
    const refresh = log.tokens[before]!;
    expect(refresh.form.get("grant_type")).toBe("refresh_token");
    expect(refresh.form.get("refresh_token")).toBe(`${slug}-refresh-1`);
    const calls = log.api.slice(apiBefore);
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.every((call) => call.authorization === `Bearer ${slug}-access-2`)).toBe(true);

    // A second refresh sends the refresh token kept from the first (the new one where the provider rotates).
    const again = await syncWithExpiredToken(userId, slug);
    expect(again.status).toBe("succeeded");
    const second = log.tokens[before + 1]!;
    expect(second.form.get("grant_type")).toBe("refresh_token");
    expect(second.form.get("refresh_token")).toBe(entry.refreshAnswersNewRefreshToken === false ? `${slug}-refresh-1` : `${slug}-refresh-2`);
    expect(log.api.at(-1)!.authorization).toBe(`Bearer ${slug}-access-3`);
  });
});
