import { CONSENT_ERRORS, type ConsentOutcome } from "@svc/core";
import { html, type SafeHtml } from "../pages/html.ts";

/** Where the person can go from the result page. */
export interface ConsentResultLinks {
  /** The app's redirect_uri with the result, when the consent may not redirect there by itself (provider off). */
  returnUrl: string | null;
  /**
   * The connect page the consent was started from: `valid` with its path and the app's name
   * while the link works, `expired` once it does not, null for a consent started by the API.
   */
  connect: { state: "valid"; path: string; appName: string | null } | { state: "expired" } | null;
}

/** The app as the page names it. */
function theApp(links: ConsentResultLinks): string {
  return links.connect?.state === "valid" && links.connect.appName ? links.connect.appName : "the app that sent you here";
}

/** The way on: back to the connect page (a button labelled `button`), else what to ask the app for. */
function nextSteps(links: ConsentResultLinks, button: string, purpose: string | null): SafeHtml {
  const connect = links.connect;
  return html`${connect?.state === "valid" ? html`<p class="actions"><a class="button" href="${connect.path}">${button}</a></p>` : ""}
${connect?.state === "expired" && purpose ? html`<p>This connect link is no longer valid. ${purpose}, ask ${theApp(links)} for a new link.</p>` : ""}
${connect === null && purpose && !links.returnUrl ? html`<p>${purpose}, go back to ${theApp(links)} and start again.</p>` : ""}
${links.returnUrl ? html`<p class="actions"><a class="button" href="${links.returnUrl}">Return to the app</a></p>` : ""}
<p>You can close this window.</p>`;
}

/**
 * The built-in page that ends a consent when the tenant gave no redirect_uri (or the redirect is
 * not allowed): what happened, and a way on (connect another service, or try again), back to
 * the connect page the consent came from while its link is valid.
 */
export function consentResultPage(outcome: ConsentOutcome, links: ConsentResultLinks): { title: string; body: SafeHtml } {
  const provider = outcome.providerName;
  const app = links.connect?.state === "valid" ? links.connect.appName : null;
  if (outcome.error === null) {
    const title = `Connected to ${provider}`;
    return {
      title,
      body: html`<h1>${title}</h1>
<p role="status" class="alert alert-ok">Your ${provider} account is connected${app ? html` to <span class="app">${app}</span>` : ""}. Your data will arrive over the next minutes.</p>
${nextSteps(links, "Connect another service", links.connect === null ? null : "To connect another service")}`,
    };
  }
  if (outcome.error === "access_denied") {
    const title = `${provider} was not connected`;
    return {
      title,
      body: html`<h1>${title}</h1>
<p role="status" class="alert">You did not allow access at ${provider}, so nothing was shared${app ? html` with <span class="app">${app}</span>` : ""}.</p>
${nextSteps(links, "Try again", "To try again")}`,
    };
  }
  const title = `Could not connect ${provider}`;
  return {
    title,
    body: html`<h1>${title}</h1>
<p role="alert" class="alert alert-error">${CONSENT_ERRORS[outcome.error].message}</p>
<p class="muted">Error code: <code>${outcome.error}</code></p>
${nextSteps(links, "Try again", "To try again")}`,
  };
}
