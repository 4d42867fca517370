import { AppError, firstRunSetupOpen, runFirstRunSetup, type CoreDeps, type FirstRunSetup } from "@svc/core";
import express, { type Request, type Response } from "express";
import { html } from "../pages/html.ts";
import { sendPage } from "../pages/page.ts";
import { OneTimeResults } from "./one-time-results.ts";
import { alreadySetUpPage, COPY_SCRIPT, notAllowedPage, resultShownPage, setupDonePage, setupFormPage, setupResultPage } from "./setup-page.ts";
import { setupPostAllowed } from "./setup-origin.ts";

const parseForm = express.urlencoded({ extended: false, limit: "4kb", parameterLimit: 10 });

const RESULT_PATH = "/setup/result";
const RESULT_COOKIE = "svc_setup_result";
/** How long a setup's keys wait for the GET that shows them. */
const RESULT_TTL_SECONDS = 600;

/**
 * The browser first-run setup: GET / offers to create the first tenant while the instance has
 * none (else a landing page); POST /setup (a form post of that page only) creates it with its
 * key and, when there is none yet, an instance admin key. Post/Redirect/Get: the POST holds the
 * keys in this process under a random id, sets that id in a cookie (HttpOnly, SameSite=Strict,
 * path /setup/result, 10 minutes) and redirects (303) to GET /setup/result, which shows them
 * once and forgets them; a reload there shows that they were shown. The keys are never logged
 * and never in a URL: only that page carries them (no-store).
 */
export function setupRouter(deps: CoreDeps): express.Router {
  const router = express.Router();
  const results = new OneTimeResults<FirstRunSetup>(RESULT_TTL_SECONDS * 1000);

  router.get("/", async (req, res) => {
    await pageOrFailure(req, res, async () => {
      const page = (await firstRunSetupOpen(deps.db)) ? setupFormPage() : setupDonePage();
      sendPage(res, 200, { ...page, referrerPolicy: "same-origin" });
    });
  });

  router.post("/setup", (req, res) => {
    parseForm(req, res, (error?: unknown) => {
      void pageOrFailure(req, res, async () => {
        const publicUrl = deps.providerConfig.settings.publicUrl();
        if (!setupPostAllowed(req, publicUrl)) return sendPage(res, 403, notAllowedPage());
        if (error) return sendPage(res, 400, { ...setupFormPage("The form could not be read: send it again."), referrerPolicy: "same-origin" });
        const body = req.body as Record<string, unknown> | undefined;
        const name = typeof body?.name === "string" ? body.name : "";
        try {
          const id = results.put(await runFirstRunSetup(deps.db, name));
          res.cookie(RESULT_COOKIE, id, { path: RESULT_PATH, httpOnly: true, sameSite: "strict", secure: overHttps(req, publicUrl), maxAge: RESULT_TTL_SECONDS * 1000 });
          res.setHeader("Cache-Control", "no-store");
          res.redirect(303, RESULT_PATH);
        } catch (failure) {
          if (!(failure instanceof AppError)) throw failure;
          if (failure.code === "conflict") return sendPage(res, 409, alreadySetUpPage());
          sendPage(res, failure.status, { ...setupFormPage(failure.detail, name.slice(0, 100)), referrerPolicy: "same-origin" });
        }
      });
    });
  });

  router.get(RESULT_PATH, async (req, res) => {
    await pageOrFailure(req, res, async () => {
      const id = cookieValue(req, RESULT_COOKIE);
      const setup = id === undefined ? undefined : results.take(id);
      res.clearCookie(RESULT_COOKIE, { path: RESULT_PATH, httpOnly: true, sameSite: "strict", secure: overHttps(req, deps.providerConfig.settings.publicUrl()) });
      if (setup) return sendPage(res, 200, { ...setupResultPage(setup), script: COPY_SCRIPT });
      sendPage(res, 200, resultShownPage(!(await firstRunSetupOpen(deps.db))));
    });
  });

  return router;
}

/** One cookie of the request (no cookie parser is mounted: this is the only cookie svc reads). */
function cookieValue(req: Request, name: string): string | undefined {
  for (const part of (req.get("cookie") ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=");
  }
  return undefined;
}

/**
 * Whether the browser reached this instance over https: directly, or by the public https URL
 * (a proxy ending TLS). Then the cookie is Secure; over plain http (localhost, a LAN address
 * while setting up) a Secure cookie would be dropped, and the keys with it.
 */
function overHttps(req: Request, publicUrl: string): boolean {
  const url = new URL(publicUrl);
  return req.secure || (url.protocol === "https:" && (req.get("host") ?? "").toLowerCase() === url.host.toLowerCase());
}

/** Runs a page handler; an unexpected failure is a plain error page (logged without the request body), never a JSON problem. */
async function pageOrFailure(req: Request, res: Response, handle: () => Promise<void>): Promise<void> {
  try {
    await handle();
  } catch (error) {
    req.log.error({ err: error }, "setup page failed");
    if (!res.headersSent) {
      sendPage(res, 503, { title: "Something went wrong", body: html`<h1>Something went wrong</h1><p>Try again in a moment.</p>` });
    }
  }
}
