import { createHash } from "node:crypto";
import type { Response } from "express";
import { FAVICON_PATH } from "./favicon.ts";
import { html, SafeHtml } from "./html.ts";

/**
 * The pages svc serves to people (connect page, consent result, the demo provider's consent,
 * first-run setup): server-rendered HTML, one small inline style sheet allowed by its hash, the
 * instance's icon, and no script except a page's own small enhancement (allowed by its hash).
 */

const STYLE = `
:root{color-scheme:light dark;--fg:#1b1f24;--bg:#f6f7f9;--card:#fff;--muted:#57606a;--line:#d0d7de;--accent:#0b57d0;--accent-fg:#fff;--ok:#1a7f37;--warn:#9a6700;--bad:#cf222e}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--bg:#0d1117;--card:#161b22;--muted:#9da7b3;--line:#30363d;--accent:#4c8dff;--accent-fg:#0d1117;--ok:#3fb950;--warn:#d29922;--bad:#ff7b72}}
*{box-sizing:border-box}
[hidden]{display:none!important}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
main{max-width:36rem;margin:2rem auto;padding:1.5rem;background:var(--card);border:1px solid var(--line);border-radius:.75rem}
@media (max-width:40rem){main{margin:0 auto;border-width:0 0 1px;border-radius:0;padding:1.25rem 1rem}}
h1{font-size:1.5rem;margin:0 0 1rem}
h2{font-size:1.125rem;margin:1.25rem 0 .5rem}
p{margin:.5rem 0}
.muted{color:var(--muted)}
ul.providers{list-style:none;margin:1rem 0;padding:0}
ul.providers li{display:flex;align-items:center;justify-content:space-between;gap:1rem;padding:.75rem 0;border-top:1px solid var(--line)}
ul.providers li:first-child{border-top:0}
.name{font-weight:600;display:block}
.status{font-size:.9rem}
.status-connected{color:var(--ok)}
.status-needs_reconnect{color:var(--warn)}
.status-not_connected{color:var(--muted)}
button,.button{font:inherit;font-weight:600;padding:.5rem 1rem;border-radius:.5rem;border:1px solid var(--accent);background:var(--accent);color:var(--accent-fg);cursor:pointer;text-decoration:none;display:inline-block}
button.secondary{background:transparent;color:var(--accent)}
button:focus-visible,.button:focus-visible,a:focus-visible{outline:3px solid var(--fg);outline-offset:2px}
a{color:var(--accent)}
.alert{padding:.75rem 1rem;border-radius:.5rem;border:1px solid var(--line);margin:0 0 1rem}
.alert-error{border-color:var(--bad)}
.alert-ok{border-color:var(--ok)}
.app{font-weight:600}
.actions{display:flex;flex-wrap:wrap;gap:.75rem;margin:1rem 0}
dt{font-weight:600;margin-top:1rem}
dd{margin:.25rem 0 0}
.secret{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem}
.secret code{flex:1 1 14rem;min-width:0;overflow-wrap:anywhere;word-break:break-all;padding:.5rem .625rem;background:var(--bg);border:1px solid var(--line);border-radius:.375rem;font-size:.95rem}
`.trim();

/** A CSP source allowing one inline style sheet or script. */
function hashSource(text: string): string {
  return `'sha256-${createHash("sha256").update(text).digest("base64")}'`;
}

const STYLE_HASH = hashSource(STYLE);

export interface PageOptions {
  title: string;
  body: SafeHtml;
  /** A small script enhancing the page (it must work without it); allowed by its hash, nothing else runs. */
  script?: string;
  /** Origins (besides this instance) a form of the page may submit or be redirected to, e.g. a provider's authorize page. */
  formTargets?: readonly string[];
  /**
   * `no-referrer` (default), or `same-origin` for a page whose forms post to this instance:
   * browsers then send its real Origin with the post (no-referrer makes it `null`), and still
   * no Referer to another site.
   */
  referrerPolicy?: "no-referrer" | "same-origin";
}

/** A whole document around the page's main content. */
export function renderPage({ title, body, script }: PageOptions): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<link rel="icon" href="${FAVICON_PATH}" type="image/svg+xml">
<style>${new SafeHtml(STYLE)}</style>
</head>
<body>
<main>
${body}
</main>
${script === undefined ? "" : html`<script>${new SafeHtml(script)}</script>`}
</body>
</html>
`.value;
}

/**
 * Sends a page with its security headers: nothing loads but the inline style sheet (by its
 * hash), the icon, and the page's own script if it has one (by its hash), no framing, forms
 * only to this instance (and the given targets), no caching, no Referer to other sites (a
 * connect link's token is in its path).
 */
export function sendPage(res: Response, status: number, options: PageOptions): void {
  const formAction = ["'self'", ...(options.formTargets ?? [])].join(" ");
  const scriptSrc = options.script === undefined ? "" : `; script-src ${hashSource(options.script)}`;
  res.status(status);
  res.setHeader(
    "Content-Security-Policy",
    `default-src 'none'; style-src ${STYLE_HASH}; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'; img-src 'self'${scriptSrc}`,
  );
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Referrer-Policy", options.referrerPolicy ?? "no-referrer");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("X-Frame-Options", "DENY");
  res.type("html").send(renderPage(options));
}
