import {
  AppError,
  connectPageProviders,
  openConnectSession,
  resolveProviderUrls,
  startSessionConnection,
  type ConnectPageProvider,
  type ConnectSession,
  type CoreDeps,
} from "@svc/core";
import express, { type Request, type Response } from "express";
import { appNameOf } from "../pages/app-name.ts";
import { html } from "../pages/html.ts";
import { sendPage } from "../pages/page.ts";
import { connectPage, invalidLinkPage } from "./connect-page.ts";
import { fetchSiteIsSameOrigin, originIsThisInstance } from "../pages/request-origin.ts";

/**
 * The hosted connect page of a connect session (POST /v1/users/{id}/connect-sessions):
 * GET /connect/{token} names the app asking (the tenant) and lists the providers with the
 * user's status; each button posts to /connect/{token}/{provider}, which starts the consent
 * (remembering the link, so the result page can lead back here) and redirects (303) to the
 * provider. The token in the path is the capability; no cookie is used. A POST from another
 * origin (Origin or Sec-Fetch-Site) is refused.
 */
export function connectRouter(deps: CoreDeps): express.Router {
  const router = express.Router();

  router.get("/connect/:token", async (req, res) => {
    await pageOrFailure(req, res, async () => {
      const opened = await openConnectSession(deps, req.params.token);
      if (!opened.ok) return sendInvalidLink(res, opened.reason);
      await sendConnectPage(deps, res, opened.session, 200, null);
    });
  });

  router.post("/connect/:token/:provider", async (req, res) => {
    await pageOrFailure(req, res, async () => {
      if (!sameOrigin(deps, req)) {
        sendPage(res, 403, { title: "Not allowed", body: html`<h1>Not allowed</h1><p>This request did not come from the connect page.</p>` });
        return;
      }
      const opened = await openConnectSession(deps, req.params.token);
      if (!opened.ok) return sendInvalidLink(res, opened.reason);
      try {
        const { authorize_url } = await startSessionConnection(deps, opened.session, req.params.provider);
        res.setHeader("Cache-Control", "no-store");
        res.setHeader("Referrer-Policy", "no-referrer");
        res.redirect(303, authorize_url);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        await sendConnectPage(deps, res, opened.session, error.status, error.detail);
      }
    });
  });

  return router;
}

async function sendConnectPage(deps: CoreDeps, res: Response, session: ConnectSession, status: number, alert: string | null) {
  const providers = await connectPageProviders(deps, session);
  const page = connectPage(session.token, appNameOf(session.tenantName), providers, alert);
  sendPage(res, status, { ...page, formTargets: authorizeOrigins(deps, providers), referrerPolicy: "same-origin" });
}

function sendInvalidLink(res: Response, reason: "unknown" | "expired"): void {
  sendPage(res, reason === "expired" ? 410 : 404, invalidLinkPage(reason));
}

/** Where the page's forms end up after the redirect: each listed provider's authorize origin (CSP form-action covers redirects). */
function authorizeOrigins(deps: CoreDeps, providers: readonly ConnectPageProvider[]): string[] {
  const origins = new Set<string>();
  for (const provider of providers) {
    const connector = deps.providers.connector(provider.slug);
    if (connector) origins.add(new URL(resolveProviderUrls(connector, deps.providerConfig.settings).authorize).origin);
  }
  return [...origins];
}

/** A form post of the page itself: same-origin by Sec-Fetch-Site and Origin, when sent. */
function sameOrigin(deps: CoreDeps, req: Request): boolean {
  return fetchSiteIsSameOrigin(req) && originIsThisInstance(req, deps.providerConfig.settings.publicUrl());
}

/** Runs a page handler; an unexpected failure is a plain error page (logged), never a JSON problem. */
async function pageOrFailure(req: Request, res: Response, handle: () => Promise<void>): Promise<void> {
  try {
    await handle();
  } catch (error) {
    req.log.error({ err: error }, "connect page failed");
    if (!res.headersSent) {
      sendPage(res, 503, { title: "Something went wrong", body: html`<h1>Something went wrong</h1><p>Try again in a moment.</p>` });
    }
  }
}
