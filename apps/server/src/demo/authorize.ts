import type { RequestHandler, Response } from "express";
import { DEMO_CLIENT_ID, DEMO_COLLECTIONS, isDemoCollection, type DemoCollection } from "@svc/providers/demo";
import { appNameOf } from "../pages/app-name.ts";
import { sendConsentErrorPage, sendConsentPage } from "./consent-page.ts";
import type { DemoGrants } from "./demo-grants.ts";

// GET /demo/oauth/authorize shows the consent page; its form POSTs the same parameters back
// with the person's decision. Both check the request the same way (RFC 6749 4.1, RFC 7636).

export interface AuthorizeSettings {
  grants: DemoGrants;
  /** The redirect_uri the demo client registered: the instance's own callback of `demo`. */
  callbackUrl(): string;
  /** False while an instance admin has switched the demo provider off. */
  enabled(): Promise<boolean>;
  /** The name of the app (tenant) a consent state was made for, while it can be used; else null. */
  appName(state: string): Promise<string | null>;
}

interface ValidRequest {
  redirectUri: string;
  state: string;
  codeChallenge: string;
  scopes: DemoCollection[];
  /** The parameters, as the consent form posts them back. */
  params: Record<string, string>;
}

type Checked =
  | { kind: "valid"; request: ValidRequest }
  /** Unknown client or redirect_uri: said on the page, never redirected (RFC 6749 4.1.2.1). */
  | { kind: "page"; message: string }
  | { kind: "redirect"; redirectUri: string; error: string; description: string; state: string | null };

const CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

function param(source: unknown, name: string): string | null {
  const value = (source as Record<string, unknown> | undefined)?.[name];
  return typeof value === "string" ? value : null;
}

export function checkAuthorizeRequest(source: unknown, callbackUrl: string): Checked {
  const clientId = param(source, "client_id");
  const redirectUri = param(source, "redirect_uri");
  if (clientId !== DEMO_CLIENT_ID) return { kind: "page", message: "The app is not a client of the demo provider (client_id)." };
  if (redirectUri !== callbackUrl) return { kind: "page", message: "The redirect_uri is not the one registered for the demo provider on this instance." };
  const state = param(source, "state");
  const refuse = (error: string, description: string): Checked => ({ kind: "redirect", redirectUri, error, description, state });
  if (param(source, "response_type") !== "code") return refuse("unsupported_response_type", "response_type must be code.");
  if (!state) return refuse("invalid_request", "state is required.");
  const codeChallenge = param(source, "code_challenge");
  if (param(source, "code_challenge_method") !== "S256" || !codeChallenge || !CODE_CHALLENGE.test(codeChallenge)) {
    return refuse("invalid_request", "PKCE with code_challenge_method S256 is required.");
  }
  const asked = (param(source, "scope") ?? "").split(" ").filter((scope) => scope !== "");
  if (asked.some((scope) => !isDemoCollection(scope))) return refuse("invalid_scope", "scope names an unknown scope.");
  const scopes = asked.length === 0 ? [...DEMO_COLLECTIONS] : DEMO_COLLECTIONS.filter((scope) => asked.includes(scope));
  return {
    kind: "valid",
    request: {
      redirectUri,
      state,
      codeChallenge,
      scopes,
      params: {
        client_id: clientId,
        redirect_uri: redirectUri,
        response_type: "code",
        scope: scopes.join(" "),
        state,
        code_challenge: codeChallenge,
        code_challenge_method: "S256",
      },
    },
  };
}

function redirectWith(res: Response, redirectUri: string, params: Record<string, string | null>): void {
  const target = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== null) target.searchParams.set(name, value);
  // 303: the browser follows with a GET whether the consent came as a GET or a form POST.
  res.setHeader("Cache-Control", "no-store");
  res.redirect(303, target.href);
}

async function checked(res: Response, settings: AuthorizeSettings, source: unknown): Promise<ValidRequest | null> {
  if (!(await settings.enabled())) {
    sendConsentErrorPage(res, 403, "The demo provider is switched off on this instance.");
    return null;
  }
  const result = checkAuthorizeRequest(source, settings.callbackUrl());
  if (result.kind === "page") {
    sendConsentErrorPage(res, 400, result.message);
    return null;
  }
  if (result.kind === "redirect") {
    redirectWith(res, result.redirectUri, { error: result.error, error_description: result.description, state: result.state });
    return null;
  }
  return result.request;
}

export function showConsent(settings: AuthorizeSettings): RequestHandler {
  return async (req, res) => {
    const request = await checked(res, settings, req.query);
    if (request) sendConsentPage(res, request, appNameOf(await settings.appName(request.state)));
  };
}

export function decideConsent(settings: AuthorizeSettings): RequestHandler {
  return async (req, res) => {
    // The form is only ever posted from the consent page itself.
    if (req.get("sec-fetch-site") === "cross-site") {
      sendConsentErrorPage(res, 403, "The consent form was sent from another site.");
      return;
    }
    const request = await checked(res, settings, req.body);
    if (!request) return;
    const decision = param(req.body, "decision");
    if (decision === "allow") {
      const code = settings.grants.issueCode({ redirectUri: request.redirectUri, codeChallenge: request.codeChallenge, scopes: request.scopes });
      redirectWith(res, request.redirectUri, { code, state: request.state });
    } else if (decision === "deny") {
      redirectWith(res, request.redirectUri, { error: "access_denied", error_description: "The person denied access.", state: request.state });
    } else {
      sendConsentErrorPage(res, 400, "Choose Allow or Deny.");
    }
  };
}
