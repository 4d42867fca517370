import type { Response } from "express";
import type { DemoCollection } from "@svc/providers/demo";
import { html } from "../pages/html.ts";
import { sendPage } from "../pages/page.ts";

// The demo provider's consent page, on the shared page layout (apps/server/src/pages).

const SCOPE_TEXT: Readonly<Record<DemoCollection, { title: string; detail: string }>> = {
  activity: { title: "Activity", detail: "steps, distance and active energy, per hour and per day" },
  heart: { title: "Heart", detail: "heart rate through the day and resting heart rate" },
  sleep: { title: "Sleep", detail: "nights with their stages, overnight heart rate variability, breathing rate and blood oxygen" },
  body: { title: "Body", detail: "weight and body fat" },
  workouts: { title: "Workouts", detail: "type, time, distance, energy and heart rate of each workout" },
};

/**
 * After the form's POST the browser is redirected to the instance's callback and from there
 * to the tenant's own redirect_uri, which this page cannot know; Chromium checks form-action
 * on every redirect of a form submission, so the page allows any http(s) target.
 */
const FORM_TARGETS = ["https:", "http:"];

/**
 * The consent page: which app asks (`appName`, the tenant of the consent; null when the state
 * names none), what is shared, and Allow / Deny posting back the request's parameters.
 */
export function sendConsentPage(
  res: Response,
  request: { params: Readonly<Record<string, string>>; scopes: readonly DemoCollection[] },
  appName: string | null,
): void {
  const heading = appName ? `Share demo data with ${appName}?` : "Share demo data?";
  sendPage(res, 200, {
    title: `${heading} · svc demo provider`,
    formTargets: FORM_TARGETS,
    body: html`<p class="muted">svc demo provider</p>
<h1>${heading}</h1>
<p>${appName ? html`<span class="app">${appName}</span>` : "An app using svc"} asks to read the data of a made-up demo person. Nothing here is real: the data is generated, and no account is needed.</p>
<h2 id="shared">What ${appName ?? "the app"} will read</h2>
<ul aria-labelledby="shared">
${request.scopes.map((scope) => html`<li><strong>${SCOPE_TEXT[scope].title}</strong>: ${SCOPE_TEXT[scope].detail}</li>\n`)}</ul>
<form method="post" action="authorize">
${Object.entries(request.params).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">\n`)}<p class="actions">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" class="secondary">Deny</button>
</p>
</form>
<p class="muted">${appName ?? "The app"} keeps reading new demo data until it disconnects.</p>`,
  });
}

/** A request that cannot go back to the app (unknown client or redirect_uri, provider off): said here, never redirected. */
export function sendConsentErrorPage(res: Response, status: number, message: string): void {
  sendPage(res, status, {
    title: "Request refused · svc demo provider",
    body: html`<p class="muted">svc demo provider</p>
<h1>This request cannot be completed</h1>
<div class="alert alert-error" role="alert"><p>${message}</p></div>
<p>You can close this window.</p>`,
  });
}
