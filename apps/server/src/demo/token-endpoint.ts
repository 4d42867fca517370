import type { Request, RequestHandler, Response } from "express";
import { DEMO_CLIENT_ID } from "@svc/providers/demo";
import { OAuthRefusal, type DemoGrants } from "./demo-grants.ts";

// POST /demo/oauth/token (RFC 6749 4.1.3 and 6) and POST /demo/oauth/revoke (RFC 7009).
// A public client: client_id in the body or as the user of Basic auth, any secret ignored.

function field(req: Request, name: string): string | null {
  const value = (req.body as Record<string, unknown> | undefined)?.[name];
  return typeof value === "string" && value !== "" ? value : null;
}

/** The client_id of the body or of a Basic header; null when neither names one. */
function clientIdOf(req: Request): string | null {
  const basic = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(req.get("authorization") ?? "");
  if (basic) {
    // RFC 6749 2.3.1: the client id is form-encoded before it goes into the header.
    const user = Buffer.from(basic[1]!, "base64").toString("utf8").split(":")[0] ?? "";
    try {
      return decodeURIComponent(user.replace(/\+/g, " "));
    } catch {
      return null;
    }
  }
  return field(req, "client_id");
}

function answerRefusal(res: Response, refusal: OAuthRefusal): void {
  const status = refusal.error === "invalid_client" ? 401 : 400;
  if (status === 401) res.setHeader("WWW-Authenticate", 'Basic realm="svc demo"');
  res.status(status).json({ error: refusal.error, error_description: refusal.message });
}

export function tokenEndpoint(grants: DemoGrants): RequestHandler {
  return (req, res) => {
    res.setHeader("Cache-Control", "no-store");
    res.setHeader("Pragma", "no-cache");
    try {
      if (!req.is("application/x-www-form-urlencoded")) throw new OAuthRefusal("invalid_request", "The body must be application/x-www-form-urlencoded.");
      if (clientIdOf(req) !== DEMO_CLIENT_ID) throw new OAuthRefusal("invalid_client", "The client is not known to the demo provider.");
      const grantType = field(req, "grant_type");
      if (grantType === "authorization_code") {
        const code = field(req, "code");
        const redirectUri = field(req, "redirect_uri");
        const codeVerifier = field(req, "code_verifier");
        if (!code || !redirectUri || !codeVerifier) throw new OAuthRefusal("invalid_request", "code, redirect_uri and code_verifier are required.");
        res.json(grants.exchangeCode({ code, redirectUri, codeVerifier }));
      } else if (grantType === "refresh_token") {
        const refreshToken = field(req, "refresh_token");
        if (!refreshToken) throw new OAuthRefusal("invalid_request", "refresh_token is required.");
        res.json(grants.refresh(refreshToken));
      } else {
        throw new OAuthRefusal("unsupported_grant_type", "grant_type must be authorization_code or refresh_token.");
      }
    } catch (error) {
      if (!(error instanceof OAuthRefusal)) throw error;
      answerRefusal(res, error);
    }
  };
}

/** Revokes the grant of the token sent; 200 whether or not the token was known (RFC 7009 2.2). */
export function revokeEndpoint(grants: DemoGrants): RequestHandler {
  return (req, res) => {
    res.setHeader("Cache-Control", "no-store");
    if (!req.is("application/x-www-form-urlencoded")) return answerRefusal(res, new OAuthRefusal("invalid_request", "The body must be application/x-www-form-urlencoded."));
    if (clientIdOf(req) !== DEMO_CLIENT_ID) return answerRefusal(res, new OAuthRefusal("invalid_client", "The client is not known to the demo provider."));
    const token = field(req, "token");
    if (!token) return answerRefusal(res, new OAuthRefusal("invalid_request", "token is required."));
    grants.revoke(token);
    res.status(200).end();
  };
}
