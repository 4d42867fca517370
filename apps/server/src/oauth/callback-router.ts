import { CONSENT_ERRORS, completeConsent, openConnectSession, redirectWithResult, type ConsentOutcome, type CoreDeps } from "@svc/core";
import express, { type Request } from "express";
import { appNameOf } from "../pages/app-name.ts";
import { sendPage } from "../pages/page.ts";
import { consentResultPage, type ConsentResultLinks } from "./consent-result-page.ts";

/**
 * GET /oauth/{provider}/callback, where providers send the user's browser after consent.
 * Redirects (303) to the consent's redirect_uri with `status=connected&provider=<slug>` or
 * `status=error&provider=<slug>&error=<code>`; without a redirect_uri (or when the state is
 * not ours, so no redirect_uri is known) a result page, which leads back to the connect page
 * the consent was started from (connect another service, or try again) while its link is
 * valid. A provider switched off for the tenant is a 403 page (with a link back to the app).
 * Never a 500: every failure is a page or a redirect with its code.
 */
export function oauthCallbackRouter(deps: CoreDeps): express.Router {
  const router = express.Router();
  router.get("/oauth/:provider/callback", async (req, res) => {
    const outcome = await completeConsent(deps, req.params.provider, req.query);
    if (outcome.unexpected !== undefined) req.log.error({ err: outcome.unexpected, provider: outcome.provider }, "consent failed");
    req.log.info({ provider: outcome.provider, consent: outcome.error ?? "connected", reason: outcome.reason }, "consent callback");

    const result: Record<string, string> =
      outcome.error === null
        ? { status: "connected", provider: outcome.provider }
        : { status: "error", provider: outcome.provider, error: outcome.error };
    const returnUrl = outcome.redirectUri ? redirectWithResult(outcome.redirectUri, result) : null;
    if (returnUrl && outcome.error !== "provider_off") {
      res.setHeader("Cache-Control", "no-store");
      res.setHeader("Referrer-Policy", "no-referrer");
      res.redirect(303, returnUrl);
      return;
    }
    // A Deny is the person's own choice, not a failure: its page answers 200 like a success.
    const status = outcome.error === null || outcome.error === "access_denied" ? 200 : CONSENT_ERRORS[outcome.error].status;
    sendPage(res, status, consentResultPage(outcome, { returnUrl, connect: await connectLink(deps, req, outcome) }));
  });
  return router;
}

/** The connect page the consent came from, as the result page offers it. */
async function connectLink(deps: CoreDeps, req: Request, outcome: ConsentOutcome): Promise<ConsentResultLinks["connect"]> {
  if (outcome.connectToken === null) return null;
  try {
    const opened = await openConnectSession(deps, outcome.connectToken);
    if (!opened.ok) return { state: "expired" };
    return { state: "valid", path: `/connect/${opened.session.token}`, appName: appNameOf(opened.session.tenantName) };
  } catch (error) {
    // The page still says what happened; only the way back is missing.
    req.log.error({ err: error }, "connect link of a consent could not be read");
    return null;
  }
}
