import express, { type Router } from "express";
import { consentStateTenantName, oauthCallbackUrl, type CoreDeps } from "@svc/core";
import { DEMO_SLUG, demoProvider } from "@svc/providers/demo";
import { decideConsent, showConsent } from "./authorize.ts";
import { demoApiRouter } from "./demo-api-routes.ts";
import { DemoGrants } from "./demo-grants.ts";
import { revokeEndpoint, tokenEndpoint } from "./token-endpoint.ts";

/**
 * The built-in demo provider, served by the instance itself under /demo: its consent page,
 * OAuth endpoints and API. The connector (packages/providers/src/demo) reaches it through
 * `{public_url}/demo/...` like any provider.
 */
export function demoRouter(deps: CoreDeps): Router {
  const grants = new DemoGrants(deps.sealer);
  const settings = {
    grants,
    callbackUrl: () => oauthCallbackUrl(deps.providerConfig.settings, DEMO_SLUG),
    enabled: async () => (await deps.providerConfig.instance(demoProvider)).status === "built_in",
    // The instance is its own demo provider: its consent page can name the tenant asking.
    appName: (state: string) => consentStateTenantName(deps.db, DEMO_SLUG, state),
  };
  const form = express.urlencoded({ extended: false, limit: "16kb" });

  const router = express.Router();
  router.get("/oauth/authorize", showConsent(settings));
  router.post("/oauth/authorize", form, decideConsent(settings));
  router.post("/oauth/token", form, tokenEndpoint(grants));
  router.post("/oauth/revoke", form, revokeEndpoint(grants));
  router.use("/api", demoApiRouter(grants));
  return router;
}
