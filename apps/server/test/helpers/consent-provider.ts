import { createHash, randomBytes } from "node:crypto";
import { emptyParsedRecords, providerCatalogOf, type Connector, type ProviderCatalog } from "@svc/core";
import { PROVIDER_REGISTRY } from "@svc/providers";
import { http, HttpResponse } from "msw";

/**
 * A made-up OAuth provider for the consent tests (`testfit`, PKCE, basic client auth) and
 * msw handlers playing its authorization server and API at https://testfit.test. The test
 * plays the user's browser: it reads state and code_challenge off the authorize URL and
 * calls the callback with a code the fake server issued for them.
 */

export const TESTFIT_ENV = { SVC_TESTFIT_CLIENT_ID: "testfit-client-id", SVC_TESTFIT_CLIENT_SECRET: "testfit-client-secret" };
const ORIGIN = "https://testfit.test";

export const TESTFIT: Connector = {
  slug: "testfit",
  name: "Testfit",
  kind: "oauth",
  dataTypes: ["activity"],
  keys: [
    { name: "CLIENT_ID", required: true, secret: false, env: "SVC_TESTFIT_CLIENT_ID" },
    { name: "CLIENT_SECRET", required: true, secret: true, env: "SVC_TESTFIT_CLIENT_SECRET" },
  ],
  applicationKeys: ["CLIENT_ID"],
  urls: { authorize: `${ORIGIN}/oauth/authorize`, token: `${ORIGIN}/oauth/token`, api: `${ORIGIN}/api` },
  oauth: { scopes: ["activity", "sleep"], pkce: true, clientAuth: "client_secret_basic", rotatesRefreshToken: true, authorizeParams: () => ({ prompt: "consent" }) },
  backfillDays: 30,
  pullIntervalMinutes: 60,
  rateLimits: {},
  async identify(client) {
    const me = (await client.request(`${client.urls.api}/me`)) as { user_id: string };
    return { providerUserId: me.user_id };
  },
  pull: async () => {},
  parsers: { "testfit-activity": () => emptyParsedRecords() },
  subscribe: async (client) => {
    const subscription = (await client.request(`${client.urls.api}/subscriptions`, { method: "POST", body: { callback: "x" } })) as { id: string };
    return [subscription.id];
  },
  unsubscribe: async (client, context) => {
    await client.request(`${client.urls.api}/subscriptions/${context.externalId}`, { method: "DELETE" });
  },
  revoke: async (client, tokens) => {
    await client.request(`${client.urls.api}/revoke`, { method: "POST", auth: "basic", body: new URLSearchParams({ token: tokens.accessToken }) });
  },
};

/** A provider this instance has no keys for. */
export const KEYLESS: Connector = { ...TESTFIT, slug: "keyless", name: "Keyless", keys: TESTFIT.keys.map((key) => ({ ...key, env: key.env.replace("TESTFIT", "KEYLESS") })), parsers: {} };

export const CONSENT_CATALOG: ProviderCatalog = providerCatalogOf([...PROVIDER_REGISTRY.all(), TESTFIT, KEYLESS]);

/** What the fake provider saw and how it answers. */
export class FakeTestfit {
  /** Code -> the authorize request it was issued for. */
  readonly codes = new Map<string, { challenge: string; redirectUri: string; userId: string }>();
  readonly tokenRequests: URLSearchParams[] = [];
  readonly tokenAuthorizations: string[] = [];
  readonly revoked: string[] = [];
  readonly unsubscribed: string[] = [];
  /** Set to make the next token request fail with this status and body. */
  tokenFailure: { status: number; body: unknown } | null = null;
  private accessTokens = new Map<string, string>();

  /** The user consents at the authorize URL: a code for it (and the provider user id the API will name). */
  consent(authorizeUrl: string, providerUserId = `testfit-user-${randomBytes(6).toString("hex")}`): { code: string; state: string } {
    const url = new URL(authorizeUrl);
    const code = randomBytes(12).toString("hex");
    this.codes.set(code, {
      challenge: url.searchParams.get("code_challenge") ?? "",
      redirectUri: url.searchParams.get("redirect_uri") ?? "",
      userId: providerUserId,
    });
    return { code, state: url.searchParams.get("state") ?? "" };
  }

  handlers() {
    return [
      http.post(`${ORIGIN}/oauth/token`, async ({ request }) => {
        const form = new URLSearchParams(await request.text());
        this.tokenRequests.push(form);
        this.tokenAuthorizations.push(request.headers.get("authorization") ?? "");
        if (this.tokenFailure) {
          const failure = this.tokenFailure;
          this.tokenFailure = null;
          return HttpResponse.json(failure.body as Record<string, unknown>, { status: failure.status });
        }
        const issued = this.codes.get(form.get("code") ?? "");
        const verifier = form.get("code_verifier") ?? "";
        const challenge = createHash("sha256").update(verifier).digest("base64url");
        if (!issued || issued.challenge !== challenge || issued.redirectUri !== form.get("redirect_uri")) {
          return HttpResponse.json({ error: "invalid_grant" }, { status: 400 });
        }
        this.codes.delete(form.get("code")!);
        const accessToken = `at-${randomBytes(8).toString("hex")}`;
        this.accessTokens.set(accessToken, issued.userId);
        return HttpResponse.json({
          access_token: accessToken,
          refresh_token: `rt-${randomBytes(8).toString("hex")}`,
          token_type: "Bearer",
          expires_in: 3600,
          scope: "activity sleep",
        });
      }),
      http.get(`${ORIGIN}/api/me`, ({ request }) => {
        const userId = this.accessTokens.get((request.headers.get("authorization") ?? "").replace("Bearer ", ""));
        return userId ? HttpResponse.json({ user_id: userId }) : new HttpResponse(null, { status: 401 });
      }),
      http.post(`${ORIGIN}/api/subscriptions`, () => HttpResponse.json({ id: `sub-${randomBytes(4).toString("hex")}` })),
      http.delete(`${ORIGIN}/api/subscriptions/:id`, ({ params }) => {
        this.unsubscribed.push(String(params.id));
        return new HttpResponse(null, { status: 204 });
      }),
      http.post(`${ORIGIN}/api/revoke`, async ({ request }) => {
        this.revoked.push(new URLSearchParams(await request.text()).get("token") ?? "");
        return new HttpResponse(null, { status: 200 });
      }),
    ];
  }
}
