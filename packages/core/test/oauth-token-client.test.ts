import { randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createSealer } from "../src/platform/crypto/index.ts";
import { buildAuthorizeUrl } from "../src/connections/oauth/authorize-url.ts";
import { checkRedirectUri, redirectWithResult } from "../src/connections/oauth/redirect-uri.ts";
import { openTokens, sealTokens } from "../src/connections/oauth/sealed-tokens.ts";
import { exchangeCode, refreshTokens, revokeGrant } from "../src/connections/oauth/token-client.ts";
import { ProviderError, type Connector } from "../src/connections/providers/connector.ts";

// The token endpoint client (oauth4webapi underneath): client authentication, PKCE, extra
// parameters, wrapped answers, and every refusal as a ProviderError without a token in it.

const TOKEN_URL = "https://auth.example.test/oauth/token";
const URLS = { authorize: "https://auth.example.test/oauth/authorize", token: TOKEN_URL, api: "https://api.example.test" };
const KEYS = { CLIENT_ID: "client-id.1", CLIENT_SECRET: "s3cr3t-value" };

const connector = (oauth: Partial<Connector["oauth"]> = {}): Connector => ({
  slug: "example",
  name: "Example",
  kind: "oauth",
  dataTypes: [],
  keys: [],
  applicationKeys: ["CLIENT_ID"],
  urls: URLS,
  oauth: { scopes: ["read", "write"], pkce: true, clientAuth: "client_secret_basic", rotatesRefreshToken: true, ...oauth },
  backfillDays: 7,
  pullIntervalMinutes: 60,
  rateLimits: {},
  identify: async () => ({ providerUserId: "u" }),
  pull: async () => {},
  parsers: {},
});

const seen: Array<{ form: URLSearchParams; authorization: string | null }> = [];
let answer: () => Response = () => HttpResponse.json({ access_token: "AT-1", refresh_token: "RT-1", token_type: "bearer", expires_in: 3600, scope: "read write" });
const msw = setupServer(
  http.post(TOKEN_URL, async ({ request }) => {
    seen.push({ form: new URLSearchParams(await request.text()), authorization: request.headers.get("authorization") });
    return answer();
  }),
);
beforeAll(() => msw.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  seen.length = 0;
});
afterAll(() => msw.close());

async function refusal(run: () => Promise<unknown>): Promise<ProviderError> {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(ProviderError);
    const message = (error as Error).message;
    for (const secret of ["RT-OLD", "s3cr3t-value", "AT-1", "code-1"]) expect(message).not.toContain(secret);
    return error as ProviderError;
  }
  throw new Error("expected a ProviderError");
}

describe("exchangeCode", () => {
  it("posts the code, PKCE verifier and redirect_uri with basic client auth (id and secret as they are)", async () => {
    const tokens = await exchangeCode(connector(), URLS, KEYS, { code: "code-1", codeVerifier: "v".repeat(43), redirectUri: "https://svc.example/oauth/example/callback" });
    expect(Object.fromEntries(seen[0]!.form)).toEqual({
      grant_type: "authorization_code",
      code: "code-1",
      code_verifier: "v".repeat(43),
      redirect_uri: "https://svc.example/oauth/example/callback",
    });
    expect(seen[0]!.authorization).toBe(`Basic ${Buffer.from("client-id.1:s3cr3t-value").toString("base64")}`);
    expect(tokens).toMatchObject({ accessToken: "AT-1", refreshToken: "RT-1", scopes: ["read", "write"] });
    expect(tokens.expiresAt!.getTime() - Date.now()).toBeGreaterThan(3590_000);
  });

  it("client_secret_post, no PKCE, extra token parameters, and a wrapped answer (Withings style)", async () => {
    answer = () => HttpResponse.json({ status: 0, body: { access_token: "AT-1", refresh_token: "RT-1", token_type: "Bearer", expires_in: "10800", userid: 42, scope: "user.metrics,user.activity" } });
    const wrapped = connector({
      pkce: false,
      clientAuth: "client_secret_post",
      tokenParams: { action: "requesttoken" },
      unwrapTokenResponse: (json) => (json as { body: unknown }).body,
    });
    const tokens = await exchangeCode(wrapped, URLS, KEYS, { code: "code-1", codeVerifier: "v".repeat(43), redirectUri: "https://svc.example/cb" });
    const form = Object.fromEntries(seen[0]!.form);
    expect(form).toMatchObject({ action: "requesttoken", client_id: "client-id.1", client_secret: "s3cr3t-value", code: "code-1" });
    expect(form.code_verifier).toBeUndefined();
    expect(seen[0]!.authorization).toBeNull();
    expect(tokens.raw.userid).toBe(42);
    expect(tokens.scopes).toEqual(["user.metrics", "user.activity"]);
    expect(tokens.expiresAt!.getTime() - Date.now()).toBeGreaterThan(10_700_000);
  });

  it("a refusal of the exchange is a ProviderError naming status and OAuth error only", async () => {
    answer = () => HttpResponse.json({ error: "invalid_grant", error_description: "code-1 is expired" }, { status: 400 });
    const error = await refusal(() => exchangeCode(connector(), URLS, KEYS, { code: "code-1", codeVerifier: "v".repeat(43), redirectUri: "https://svc.example/cb" }));
    expect(error.kind).toBe("refused");
    expect(error.message).toContain("400 invalid_grant");
  });
});

describe("refreshTokens", () => {
  it("sends the refresh token; keeps it when the answer has no new one", async () => {
    answer = () => HttpResponse.json({ access_token: "AT-2", token_type: "bearer", expires_in: 60 });
    const tokens = await refreshTokens(connector(), URLS, KEYS, "RT-OLD");
    expect(Object.fromEntries(seen[0]!.form)).toEqual({ grant_type: "refresh_token", refresh_token: "RT-OLD" });
    expect(tokens).toMatchObject({ accessToken: "AT-2", refreshToken: "RT-OLD", scopes: null });
  });

  it("invalid_grant, 400 and 401 are refused; 429 rate_limited with Retry-After; 5xx, bad answers and the network failed", async () => {
    const cases: Array<[() => Response, string, number | null]> = [
      [() => HttpResponse.json({ error: "invalid_grant" }, { status: 400 }), "refused", null],
      [() => HttpResponse.json({ error: "invalid_client" }, { status: 401 }), "refused", null],
      [() => HttpResponse.json({ error: "invalid_grant" }), "refused", null],
      [() => new HttpResponse("slow down", { status: 429, headers: { "retry-after": "120" } }), "rate_limited", 120],
      [() => new HttpResponse("oops", { status: 503 }), "failed", null],
      [() => new HttpResponse("<html>", { status: 200, headers: { "content-type": "text/html" } }), "failed", null],
      [() => HttpResponse.json({ token_type: "bearer" }), "failed", null],
      [() => HttpResponse.json({ access_token: "AT-1", token_type: "mac" }), "failed", null],
      [() => HttpResponse.error(), "failed", null],
    ];
    for (const [reply, kind, retryAfter] of cases) {
      answer = reply;
      const error = await refusal(() => refreshTokens(connector(), URLS, KEYS, "RT-OLD"));
      expect(error.kind, error.message).toBe(kind);
      expect(error.retryAfterSeconds).toBe(retryAfter);
    }
  });
});

describe("plain http", () => {
  let server: Server;
  let port = 0;
  beforeAll(async () => {
    msw.close();
    server = createServer((_request, response) => {
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ access_token: "AT-L", token_type: "bearer" }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    msw.listen({ onUnhandledRequest: "error" });
  });

  it("is allowed to this machine only (tests, local development)", async () => {
    const local = { ...URLS, token: `http://127.0.0.1:${port}/token` };
    expect((await refreshTokens(connector(), local, KEYS, "RT-OLD")).accessToken).toBe("AT-L");
    const remote = { ...URLS, token: "http://auth.example.test/token" };
    expect((await refusal(() => refreshTokens(connector(), remote, KEYS, "RT-OLD"))).kind).toBe("failed");
  });
});

describe("around the token endpoint", () => {
  it("revokeGrant is best effort", async () => {
    const tokens = { accessToken: "AT-1", refreshToken: null, expiresAt: null, scopes: null, raw: {} };
    const client = { urls: URLS, keys: KEYS, request: async () => null };
    expect(await revokeGrant(connector(), client, tokens)).toBe(false);
    const failing = { ...connector(), revoke: async () => Promise.reject(new Error("down")) };
    expect(await revokeGrant(failing, client, tokens)).toBe(false);
    const working = { ...connector(), revoke: async () => {} };
    expect(await revokeGrant(working, client, tokens)).toBe(true);
  });

  it("sealed tokens open to the same tokens and hold nothing readable", () => {
    const sealer = createSealer({ current: randomBytes(32) });
    const tokens = { accessToken: "AT-1", refreshToken: "RT-1", expiresAt: new Date("2030-01-01T00:00:00Z"), scopes: ["read"], raw: { userid: 42 } };
    const sealed = sealTokens(sealer, tokens);
    expect(sealed).not.toContain("AT-1");
    expect(openTokens(sealer, sealed)).toEqual(tokens);
  });

  it("the authorize URL carries client_id, redirect_uri, code, scopes (their separator), state, S256 and the connector's extras", () => {
    const url = new URL(
      buildAuthorizeUrl(connector({ scopeSeparator: ",", authorizeParams: (keys) => ({ access_type: "offline", audience: keys.CLIENT_ID! }) }), URLS, KEYS, {
        redirectUri: "https://svc.example/oauth/example/callback",
        state: "S",
        codeChallenge: "C",
      }),
    );
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: "client-id.1",
      redirect_uri: "https://svc.example/oauth/example/callback",
      response_type: "code",
      scope: "read,write",
      state: "S",
      code_challenge: "C",
      code_challenge_method: "S256",
      access_type: "offline",
      audience: "client-id.1",
    });
    const noPkce = new URL(buildAuthorizeUrl(connector({ pkce: false }), URLS, KEYS, { redirectUri: "https://x.example/", state: "S", codeChallenge: "C" }));
    expect(noPkce.searchParams.has("code_challenge")).toBe(false);
  });

  it("redirect_uri: https, or http to loopback; results added to its query", () => {
    expect(checkRedirectUri("https://app.example/cb")).toBe("https://app.example/cb");
    expect(checkRedirectUri("http://localhost:5173/cb")).toBe("http://localhost:5173/cb");
    for (const bad of ["http://10.0.0.1/cb", "http://localhost.evil.example/cb", "//app.example/cb", "https://app.example/cb#x", `https://app.example/${"a".repeat(2000)}`]) {
      expect(() => checkRedirectUri(bad), bad).toThrow(/redirect_uri/);
    }
    expect(redirectWithResult("https://app.example/cb?a=1", { status: "error", provider: "x", error: "access_denied" })).toBe(
      "https://app.example/cb?a=1&status=error&provider=x&error=access_denied",
    );
  });
});
