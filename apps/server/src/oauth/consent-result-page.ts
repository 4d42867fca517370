import { CONSENT_ERRORS, type ConsentOutcome } from "@svc/core";
import { html, type SafeHtml } from "../pages/html.ts";

/** The built-in page that ends a consent when the tenant gave no redirect_uri (or the redirect is not allowed). */
export function consentResultPage(outcome: ConsentOutcome, returnUrl: string | null): { title: string; body: SafeHtml } {
  if (outcome.error === null) {
    const title = `Connected to ${outcome.providerName}`;
    return {
      title,
      body: html`<h1>${title}</h1>
<p role="status" class="alert alert-ok">Your ${outcome.providerName} account is connected. Your data will arrive over the next minutes.</p>
<p>You can close this window.</p>`,
    };
  }
  const title = `Could not connect ${outcome.providerName}`;
  return {
    title,
    body: html`<h1>${title}</h1>
<p role="alert" class="alert alert-error">${CONSENT_ERRORS[outcome.error].message}</p>
<p class="muted">Error code: <code>${outcome.error}</code></p>
${returnUrl ? html`<p><a class="button" href="${returnUrl}">Return to the app</a></p>` : ""}
<p>You can close this window.</p>`,
  };
}
