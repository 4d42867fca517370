import type { FirstRunSetup } from "@svc/core";
import { html, type SafeHtml } from "../pages/html.ts";

type Page = { title: string; body: SafeHtml };

/** GET / on an instance with no tenant: the form that creates the first tenant. */
export function setupFormPage(alert: string | null = null, name = ""): Page {
  const title = "Set up this svc instance";
  return {
    title,
    body: html`<h1>${title}</h1>
${alert ? html`<p role="alert" class="alert alert-error">${alert}</p>` : ""}
<p>This instance has no tenant yet. Create the first one: you get its API key and, when the instance has none yet, an instance admin key for the console. Both are shown once.</p>
<p class="muted">Whoever submits this form first owns the instance. To set it up without this page, start it with SVC_BOOTSTRAP_TENANT or run <code>svc admin tenant create</code>.</p>
<form method="post" action="/setup">
<p><label for="tenant-name">Tenant name</label></p>
<p><input id="tenant-name" name="name" type="text" required minlength="1" maxlength="100" autocomplete="organization" aria-describedby="tenant-name-hint" value="${name}"></p>
<p id="tenant-name-hint" class="muted">1 to 100 characters, e.g. your company or app.</p>
<p><button type="submit">Create the first tenant</button></p>
</form>`,
  };
}

/** GET / once a tenant exists: no form, where to go next. */
export function setupDonePage(): Page {
  const title = "svc is running";
  return {
    title,
    body: html`<h1>${title}</h1>
<p>Setup is done: this instance has a tenant.</p>
<ul>
<li><a href="/console">Open the admin console</a> (sign in with an instance admin key)</li>
<li><a href="/openapi.yaml">Read the API description</a> (OpenAPI)</li>
</ul>`,
  };
}

/** One value of the result page: its code (wrapping within any width) and its copy button, shown by the script. */
function secret(id: string, label: string, value: string): SafeHtml {
  return html`<div class="secret"><code id="${id}">${value}</code><button type="button" class="secondary" data-copy="${id}" data-label="${label}" aria-label="Copy ${label.toLowerCase()}" hidden>Copy</button></div>`;
}

/**
 * The copy buttons of the result page (progressive enhancement: without script the buttons stay
 * hidden and the keys are selected by hand). Outside a secure context there is no clipboard
 * API: the key is selected and copied the old way, or the person is told to press Ctrl+C.
 */
export const COPY_SCRIPT = `
const status = document.getElementById("copy-status");
for (const button of document.querySelectorAll("button[data-copy]")) {
  button.hidden = false;
  button.addEventListener("click", async () => {
    const source = document.getElementById(button.dataset.copy);
    const label = button.dataset.label;
    let copied = false;
    try {
      await navigator.clipboard.writeText(source.textContent);
      copied = true;
    } catch {
      const range = document.createRange();
      range.selectNodeContents(source);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      copied = document.execCommand("copy");
    }
    status.textContent = copied ? label + " copied." : label + " is selected: press Ctrl+C (or Command+C) to copy it.";
  });
}
`.trim();

/** GET /setup/result right after a successful setup: the new keys, this once. */
export function setupResultPage(setup: FirstRunSetup): Page {
  const title = "Your instance is set up";
  return {
    title,
    body: html`<h1>${title}</h1>
<p role="alert" class="alert alert-ok"><strong>Store these keys now, in a password manager or secret store.</strong> They are shown only this once: svc keeps only their hashes and cannot show them again, and reloading this page will not bring them back.</p>
<dl>
<dt>Tenant</dt>
<dd>${setup.tenant.name}</dd>
<dt>Tenant id</dt>
<dd>${secret("tenant-id", "Tenant id", setup.tenant.tenant_id)}</dd>
<dt>Tenant API key (for your backend's calls to /v1)</dt>
<dd>${secret("tenant-api-key", "Tenant API key", setup.tenant.api_key)}</dd>
${setup.admin_key
  ? html`<dt>Instance admin key (to sign in to the console)</dt>
<dd>${secret("admin-key", "Instance admin key", setup.admin_key.admin_key)}</dd>`
  : ""}
</dl>
<p id="copy-status" role="status" class="muted"></p>
${setup.admin_key ? "" : html`<p class="muted">The instance already had an admin key, so none was created.</p>`}
<p class="actions"><a class="button" href="/console">Open the admin console</a></p>`,
  };
}

/** GET /setup/result without a result to show: reloaded, visited again, or opened elsewhere. */
export function resultShownPage(setUp: boolean): Page {
  if (!setUp) {
    const title = "Nothing to show";
    return { title, body: html`<h1>${title}</h1><p>This instance is not set up yet. <a href="/">Set it up</a>.</p>` };
  }
  const title = "The keys were shown once";
  return {
    title,
    body: html`<h1>${title}</h1>
<p>This instance is set up. Its first keys were shown once, right after the setup, and cannot be shown again: svc keeps only their hashes.</p>
<p>If they were not stored: on the server, <code>svc admin key create</code> makes a new instance admin key, and the admin console (or <code>svc admin tenant key create</code>) makes a new tenant API key.</p>
<p class="actions"><a class="button" href="/console">Open the admin console</a></p>`,
  };
}

/** POST /setup once a tenant exists. */
export function alreadySetUpPage(): Page {
  const title = "Already set up";
  return {
    title,
    body: html`<h1>${title}</h1>
<p>This instance already has a tenant, so the first-run setup is closed. Ask its admin for a key, or create tenants in the <a href="/console">admin console</a>.</p>`,
  };
}

/** POST /setup from another site (or a rebound host name). */
export function notAllowedPage(): Page {
  return { title: "Not allowed", body: html`<h1>Not allowed</h1><p>This request did not come from this instance's setup page.</p>` };
}
