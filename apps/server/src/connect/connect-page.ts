import type { ConnectPageProvider } from "@svc/core";
import { html, type SafeHtml } from "../pages/html.ts";

const STATUS_TEXT: Record<ConnectPageProvider["status"], string> = {
  connected: "Connected",
  needs_reconnect: "Needs reconnecting",
  not_connected: "Not connected",
};

/** The sentence that names the app asking (the tenant), or says plainly that an app asks. */
function requester(appName: string | null): SafeHtml {
  return appName
    ? html`<p><span class="app">${appName}</span> asks you to connect the services that hold your health data, so that it can read that data.</p>`
    : html`<p>The app that sent you here asks you to connect the services that hold your health data, so that it can read that data.</p>`;
}

/** The hosted connect page: which app asks, the providers with the user's status and one form button each. */
export function connectPage(token: string, appName: string | null, providers: readonly ConnectPageProvider[], alert: string | null): { title: string; body: SafeHtml } {
  const title = "Connect your health data";
  const items = providers.map((provider) => {
    const verb = provider.status === "not_connected" ? "Connect" : "Reconnect";
    const statusId = `status-${provider.slug}`;
    return html`<li>
<div><span class="name">${provider.name}</span><span id="${statusId}" class="status status-${provider.status}">${STATUS_TEXT[provider.status]}</span></div>
<form method="post" action="/connect/${token}/${provider.slug}">
<button type="submit" class="${provider.status === "connected" ? "secondary" : ""}" aria-label="${verb} ${provider.name}" aria-describedby="${statusId}">${verb}</button>
</form>
</li>`;
  });
  return {
    title,
    body: html`<h1>${title}</h1>
${alert ? html`<p role="alert" class="alert alert-error">${alert}</p>` : ""}
${requester(appName)}
<p class="muted">Choose a service to share its data. You sign in at the service itself and come back here or to the app.</p>
${providers.length > 0
  ? html`<ul class="providers" aria-label="Services">${items}</ul>`
  : html`<p>No services can be connected right now.</p>`}`,
  };
}

/** The page of a connect link that is not (or no longer) valid. */
export function invalidLinkPage(reason: "unknown" | "expired"): { title: string; body: SafeHtml } {
  const title = reason === "expired" ? "This link expired" : "This link is not valid";
  return {
    title,
    body: html`<h1>${title}</h1>
<p>${reason === "expired" ? "Connect links work for a limited time." : "The link may be mistyped, or no longer in use."} Ask the app that sent you here for a new link.</p>
<p>You can close this window.</p>`,
  };
}
