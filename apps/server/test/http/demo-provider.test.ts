import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createAdminKey } from "@svc/core";
import { browserAvailable, launchBrowser, saveScreenshot } from "@svc/testing";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/test-service.ts";

// The built-in demo provider as the instance serves it under /demo: the consent page (in
// headless Chromium), the token endpoint's rules, and the API's bearer checks. The whole
// connect flow through the spec routes is in demo-flow.test.ts.

let svc: TestService;
let callbackUrl: string;

beforeAll(async () => {
  svc = await startTestService();
  callbackUrl = `${svc.url}/oauth/demo/callback`;
});
afterAll(() => svc?.stop());

const verifierAndChallenge = () => {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
};

function authorizeParams(overrides: Record<string, string | null> = {}, challenge = verifierAndChallenge().challenge): URLSearchParams {
  const params: Record<string, string | null> = {
    client_id: "demo",
    redirect_uri: callbackUrl,
    response_type: "code",
    scope: "activity heart sleep body workouts",
    state: "state-123",
    code_challenge: challenge,
    code_challenge_method: "S256",
    ...overrides,
  };
  return new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== null));
}

async function get(pathAndQuery: string, headers: Record<string, string> = {}) {
  const response = await fetch(`${svc.url}${pathAndQuery}`, { redirect: "manual", headers });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

async function postForm(pathName: string, form: Record<string, string>, headers: Record<string, string> = {}) {
  const response = await fetch(`${svc.url}${pathName}`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
    body: new URLSearchParams(form),
  });
  const text = await response.text();
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** The consent form's Allow, as the browser would post it; answers the code and verifier. */
async function consent(scope = "activity heart sleep body workouts") {
  const { verifier, challenge } = verifierAndChallenge();
  const answer = await postForm("/demo/oauth/authorize", { ...Object.fromEntries(authorizeParams({ scope }, challenge)), decision: "allow" });
  expect(answer.status).toBe(303);
  const location = new URL(answer.headers.get("location")!);
  return { code: location.searchParams.get("code")!, verifier, location };
}

const exchange = (code: string, verifier: string, overrides: Record<string, string> = {}) =>
  postForm("/demo/oauth/token", { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: callbackUrl, client_id: "demo", ...overrides });

const refresh = (refreshToken: string) => postForm("/demo/oauth/token", { grant_type: "refresh_token", refresh_token: refreshToken, client_id: "demo" });

async function tokens(scope?: string) {
  const { code, verifier } = await consent(scope);
  const answer = await exchange(code, verifier);
  expect(answer.status, answer.text).toBe(200);
  return answer.json as { access_token: string; refresh_token: string; user_id: string; scope: string; expires_in: number; token_type: string };
}

const api = (pathAndQuery: string, accessToken?: string) =>
  get(`/demo/api${pathAndQuery}`, accessToken ? { authorization: `Bearer ${accessToken}` } : {});

const lastWeek = () => {
  const end = new Date();
  const start = new Date(end.getTime() - 7 * 86_400_000);
  return `start=${start.toISOString()}&end=${end.toISOString()}`;
};

describe("GET /demo/oauth/authorize", () => {
  it("shows the consent page with what is shared, its security headers and no script", async () => {
    const page = await get(`/demo/oauth/authorize?${authorizeParams({ scope: "sleep body" })}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    expect(page.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
    expect(page.headers.get("content-security-policy")).toMatch(/frame-ancestors 'none'/);
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.text).not.toMatch(/<script/i);
    expect(page.text).toContain("<strong>Sleep</strong>");
    expect(page.text).toContain("<strong>Body</strong>");
    expect(page.text).not.toContain("<strong>Heart</strong>");
    expect(page.text).toContain('name="state" value="state-123"');
  });

  it("says on the page, never redirecting, when the client or the redirect_uri is not the demo's", async () => {
    const cases: Array<Record<string, string | null>> = [
      { client_id: "someone-else" },
      { client_id: null },
      { redirect_uri: "https://evil.test/cb" },
      { redirect_uri: `${svc.url}/oauth/oura/callback` },
    ];
    for (const overrides of cases) {
      const page = await get(`/demo/oauth/authorize?${authorizeParams(overrides)}`);
      expect(page.status).toBe(400);
      expect(page.headers.get("location")).toBeNull();
      expect(page.text).toContain("This request cannot be completed");
    }
  });

  it("sends other refusals back to the callback with the state: no PKCE, plain PKCE, another response_type, an unknown scope", async () => {
    const cases: Array<[Record<string, string | null>, string]> = [
      [{ code_challenge: null }, "invalid_request"],
      [{ code_challenge_method: "plain" }, "invalid_request"],
      [{ code_challenge_method: null }, "invalid_request"],
      [{ response_type: "token" }, "unsupported_response_type"],
      [{ scope: "sleep email" }, "invalid_scope"],
      [{ state: null }, "invalid_request"],
    ];
    for (const [overrides, error] of cases) {
      const answer = await get(`/demo/oauth/authorize?${authorizeParams(overrides)}`);
      expect(answer.status, JSON.stringify(overrides)).toBe(303);
      const location = new URL(answer.headers.get("location")!);
      expect(`${location.origin}${location.pathname}`).toBe(callbackUrl);
      expect(location.searchParams.get("error")).toBe(error);
      expect(location.searchParams.get("state")).toBe(overrides.state === null ? null : "state-123");
      expect(location.searchParams.get("code")).toBeNull();
    }
  });

  it("refuses a consent form posted from another site", async () => {
    const answer = await postForm("/demo/oauth/authorize", { ...Object.fromEntries(authorizeParams()), decision: "allow" }, { "sec-fetch-site": "cross-site" });
    expect(answer.status).toBe(403);
    expect(answer.headers.get("location")).toBeNull();
  });
});

describe.skipIf(!browserAvailable())("the consent page in headless Chromium", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  /** Opens the consent page; answers the page, the verifier, and the callback URL the browser is sent to (captured, then let through). */
  async function openConsent(name: string) {
    const { verifier, challenge } = verifierAndChallenge();
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems: string[] = [];
    // A blocked style, form or redirect shows as a console error (the callback's own 400 for
    // the made-up state does not count).
    page.on("console", (message) => {
      if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) problems.push(message.text());
    });
    await page.goto(`${svc.url}/demo/oauth/authorize?${authorizeParams({}, challenge)}`);
    await saveScreenshot(page, name);
    const callback = page.waitForRequest((request) => request.url().startsWith(callbackUrl));
    return { page, verifier, problems, callback, close: () => context.close() };
  }

  it("Allow (with the keyboard) sends the browser to the instance's callback with a code that the token endpoint takes", async () => {
    const { page, verifier, problems, callback, close } = await openConsent("demo-consent");
    await expect(page.title()).resolves.toBe("Share demo data? · svc demo provider");
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Share demo data?");
    expect(await page.getByRole("list").getByRole("listitem").count()).toBe(5);
    // The first stop of the keyboard is Allow; Enter submits.
    await page.keyboard.press("Tab");
    expect(await page.evaluate("document.activeElement && document.activeElement.textContent")).toBe("Allow");
    await page.keyboard.press("Enter");
    const url = new URL((await callback).url());
    await page.waitForLoadState();
    expect(url.searchParams.get("state")).toBe("state-123");
    const code = url.searchParams.get("code")!;
    expect(code).toMatch(/^demo_code\./);
    // The callback (the CONNECT route) does not know this made-up state, so the code is still unused.
    const answer = await exchange(code, verifier);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.json).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "activity heart sleep body workouts" });
    expect(problems).toEqual([]);
    await close();
  });

  it("Deny sends the browser to the callback with error=access_denied and the state", async () => {
    const { page, problems, callback, close } = await openConsent("demo-consent-deny");
    await page.getByRole("button", { name: "Deny" }).click();
    const url = new URL((await callback).url());
    await page.waitForLoadState();
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ error: "access_denied", state: "state-123" });
    expect(url.searchParams.get("code")).toBeNull();
    expect(problems).toEqual([]);
    await close();
  });

  it("shows a refused request as a page, with the reason", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const response = await page.goto(`${svc.url}/demo/oauth/authorize?${authorizeParams({ redirect_uri: "https://evil.test/cb" })}`);
    expect(response?.status()).toBe(400);
    expect(await page.getByRole("alert").textContent()).toContain("redirect_uri");
    await saveScreenshot(page, "demo-consent-refused");
    await context.close();
  });
});

describe("POST /demo/oauth/token", () => {
  it("exchanges a code once: the standard token answer with the demo user's id; a second use is invalid_grant", async () => {
    const { code, verifier } = await consent();
    const first = await exchange(code, verifier);
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe("no-store");
    expect(first.json).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
    expect(first.json.access_token).toMatch(/^demo_at\./);
    expect(first.json.refresh_token).toMatch(/^demo_rt\./);
    expect(first.json.user_id).toMatch(/^demo-[0-9a-f]{24}$/);
    const again = await exchange(code, verifier);
    expect(again.status).toBe(400);
    expect(again.json).toMatchObject({ error: "invalid_grant" });
  });

  it("refuses a wrong PKCE verifier, and the code is spent by the attempt", async () => {
    const { code, verifier } = await consent();
    const wrong = await exchange(code, verifierAndChallenge().verifier);
    expect(wrong.status).toBe(400);
    expect(wrong.json).toMatchObject({ error: "invalid_grant" });
    expect((await exchange(code, verifier)).json).toMatchObject({ error: "invalid_grant" });
  });

  it("refuses another redirect_uri, a made-up code, and a missing verifier", async () => {
    const { code, verifier } = await consent();
    expect((await exchange(code, verifier, { redirect_uri: `${svc.url}/elsewhere` })).json).toMatchObject({ error: "invalid_grant" });
    expect((await exchange("demo_code.v1.0000000000000000.AAAA.BBBB", verifier)).json).toMatchObject({ error: "invalid_grant" });
    const other = await consent();
    const missing = await postForm("/demo/oauth/token", { grant_type: "authorization_code", code: other.code, redirect_uri: callbackUrl, client_id: "demo" });
    expect(missing.status).toBe(400);
    expect(missing.json).toMatchObject({ error: "invalid_request" });
  });

  it("refuses another client_id (401 invalid_client), in the body or as Basic auth", async () => {
    const { code, verifier } = await consent();
    const body = await exchange(code, verifier, { client_id: "svc-other" });
    expect(body.status).toBe(401);
    expect(body.json).toMatchObject({ error: "invalid_client" });
    const basic = await postForm(
      "/demo/oauth/token",
      { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: callbackUrl },
      { authorization: `Basic ${Buffer.from("svc-other:secret").toString("base64")}` },
    );
    expect(basic.status).toBe(401);
    // The refusals did not spend the code: the demo client (here as Basic auth) still gets its tokens.
    const good = await postForm(
      "/demo/oauth/token",
      { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: callbackUrl },
      { authorization: `Basic ${Buffer.from("demo:").toString("base64")}` },
    );
    expect(good.status, good.text).toBe(200);
  });

  it("refuses an unknown grant_type and a body that is not a form", async () => {
    expect((await postForm("/demo/oauth/token", { grant_type: "password", client_id: "demo" })).json).toMatchObject({ error: "unsupported_grant_type" });
    const json = await fetch(`${svc.url}/demo/oauth/token`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ error: "invalid_request" });
  });

  it("rotates refresh tokens: each refresh gives a new one and the old one stops working", async () => {
    const first = await tokens();
    const second = await refresh(first.refresh_token);
    expect(second.status, second.text).toBe(200);
    expect(second.json.refresh_token).not.toBe(first.refresh_token);
    expect(second.json.user_id).toBe(first.user_id);
    expect(second.json.scope).toBe(first.scope);
    const replayed = await refresh(first.refresh_token);
    expect(replayed.status).toBe(400);
    expect(replayed.json).toMatchObject({ error: "invalid_grant" });
    const third = await refresh(second.json.refresh_token);
    expect(third.status).toBe(200);
    expect((await api("/v1/profile", third.json.access_token)).status).toBe(200);
    // An access token is not a refresh token.
    expect((await refresh(third.json.access_token)).json).toMatchObject({ error: "invalid_grant" });
  });

  it("revokes a grant: its tokens stop working", async () => {
    const granted = await tokens();
    const revoked = await postForm("/demo/oauth/revoke", { token: granted.refresh_token, client_id: "demo" });
    expect(revoked.status).toBe(200);
    expect((await api("/v1/profile", granted.access_token)).status).toBe(401);
    expect((await refresh(granted.refresh_token)).json).toMatchObject({ error: "invalid_grant" });
  });
});

describe("GET /demo/api", () => {
  it("is 401 with WWW-Authenticate without a token, with a made-up one, or with a refresh token", async () => {
    const none = await api("/v1/profile");
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer /);
    const granted = await tokens();
    for (const token of ["nonsense", "demo_at.v1.0000000000000000.AAAA.BBBB", granted.refresh_token, `${granted.access_token}x`]) {
      const answer = await api(`/v1/activity?${lastWeek()}`, token);
      expect(answer.status).toBe(401);
      expect(answer.headers.get("www-authenticate")).toMatch(/error="invalid_token"/);
    }
  });

  it("answers the profile and a week of each collection for the token's user, the same on a second call", async () => {
    const granted = await tokens();
    const profile = JSON.parse((await api("/v1/profile", granted.access_token)).text);
    expect(profile.user_id).toBe(granted.user_id);
    const window = `start=2025-03-01T00:00:00Z&end=2025-03-08T00:00:00Z`;
    for (const collection of ["activity", "heart", "sleep", "body", "workouts"]) {
      const first = await api(`/v1/${collection}?${window}`, granted.access_token);
      expect(first.status, first.text).toBe(200);
      expect(first.headers.get("cache-control")).toBe("no-store");
      const page = JSON.parse(first.text);
      expect(page.timezone).toBe(profile.timezone);
      if (["activity", "heart", "sleep"].includes(collection)) expect(page.data.length).toBeGreaterThanOrEqual(7);
      expect((await api(`/v1/${collection}?${window}`, granted.access_token)).text).toBe(first.text);
    }
  });

  it("is 403 for a collection the grant's scopes leave out", async () => {
    const granted = await tokens("sleep");
    expect((await api(`/v1/sleep?${lastWeek()}`, granted.access_token)).status).toBe(200);
    const heart = await api(`/v1/heart?${lastWeek()}`, granted.access_token);
    expect(heart.status).toBe(403);
    expect(heart.headers.get("www-authenticate")).toMatch(/insufficient_scope/);
  });

  it("is 400 for a window that is missing, reversed or longer than 7 days; 404 for an unknown collection", async () => {
    const granted = await tokens();
    const bad = ["", "start=2025-03-01&end=2025-03-02", "start=2025-03-08T00:00:00Z&end=2025-03-01T00:00:00Z", "start=2025-03-01T00:00:00Z&end=2025-03-08T00:00:01Z"];
    for (const query of bad) expect((await api(`/v1/activity?${query}`, granted.access_token)).status).toBe(400);
    expect((await api(`/v1/steps?${lastWeek()}`, granted.access_token)).status).toBe(404);
  });
});

describe("codes and tokens need no table", () => {
  it("keep working after a restart of the instance (sealed with its encryption key)", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "svc-demo-restart-"));
    try {
      const first = await startTestService({ SVC_DATA_DIR: dataDir });
      const callback = `${first.url}/oauth/demo/callback`;
      const { verifier, challenge } = verifierAndChallenge();
      const form = (url: string, body: Record<string, string>) =>
        fetch(url, { method: "POST", redirect: "manual", headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(body) });
      const consented = await form(`${first.url}/demo/oauth/authorize`, {
        ...Object.fromEntries(authorizeParams({ redirect_uri: callback }, challenge)),
        decision: "allow",
      });
      const code = new URL(consented.headers.get("location")!).searchParams.get("code")!;
      const exchanged = await form(`${first.url}/demo/oauth/token`, { grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: callback, client_id: "demo" });
      const granted = (await exchanged.json()) as { access_token: string; refresh_token: string; user_id: string };
      await first.stop();

      const second = await startTestService({ SVC_DATA_DIR: dataDir }, { databaseUrl: first.databaseUrl });
      try {
        const profile = await fetch(`${second.url}/demo/api/v1/profile`, { headers: { authorization: `Bearer ${granted.access_token}` } });
        expect(profile.status).toBe(200);
        expect(((await profile.json()) as { user_id: string }).user_id).toBe(granted.user_id);
        const refreshed = await form(`${second.url}/demo/oauth/token`, { grant_type: "refresh_token", refresh_token: granted.refresh_token, client_id: "demo" });
        expect(refreshed.status).toBe(200);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe("the instance switch", () => {
  it("switched off on the instance, the consent page says so (403) and issues no code", async () => {
    const admin = (await createAdminKey(svc.db, "demo-test")).admin_key;
    const off = await svc.call("/v1/admin/providers/demo", { method: "PATCH", key: admin, body: { enabled: false } });
    expect(off.status, off.text).toBe(200);
    const page = await get(`/demo/oauth/authorize?${authorizeParams()}`);
    expect(page.status).toBe(403);
    expect(page.text).toContain("switched off");
    const posted = await postForm("/demo/oauth/authorize", { ...Object.fromEntries(authorizeParams()), decision: "allow" });
    expect(posted.status).toBe(403);
    expect(posted.headers.get("location")).toBeNull();
    expect((await svc.call("/v1/admin/providers/demo", { method: "PATCH", key: admin, body: { enabled: true } })).status).toBe(200);
    expect((await get(`/demo/oauth/authorize?${authorizeParams()}`)).status).toBe(200);
  });
});
