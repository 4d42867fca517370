import { AppError, firstRunSetupOpen, runFirstRunSetup, type CoreDeps } from "@svc/core";
import express, { type Request, type Response } from "express";
import { html } from "../pages/html.ts";
import { sendPage } from "../pages/page.ts";
import { alreadySetUpPage, notAllowedPage, setupDonePage, setupFormPage, setupResultPage } from "./setup-page.ts";
import { setupPostAllowed } from "./setup-origin.ts";

const parseForm = express.urlencoded({ extended: false, limit: "4kb", parameterLimit: 10 });

/**
 * The browser first-run setup: GET / offers to create the first tenant while the instance has
 * none (else a landing page); POST /setup (a form post of that page only) creates it with its
 * key and, when there is none yet, an instance admin key, and shows both once. The keys are
 * never logged: only the page carries them (no-store).
 */
export function setupRouter(deps: CoreDeps): express.Router {
  const router = express.Router();

  router.get("/", async (req, res) => {
    await pageOrFailure(req, res, async () => {
      const page = (await firstRunSetupOpen(deps.db)) ? setupFormPage() : setupDonePage();
      sendPage(res, 200, { ...page, referrerPolicy: "same-origin" });
    });
  });

  router.post("/setup", (req, res) => {
    parseForm(req, res, (error?: unknown) => {
      void pageOrFailure(req, res, async () => {
        if (!setupPostAllowed(req, deps.providerConfig.settings.publicUrl())) return sendPage(res, 403, notAllowedPage());
        if (error) return sendPage(res, 400, { ...setupFormPage("The form could not be read: send it again."), referrerPolicy: "same-origin" });
        const body = req.body as Record<string, unknown> | undefined;
        const name = typeof body?.name === "string" ? body.name : "";
        try {
          sendPage(res, 201, setupResultPage(await runFirstRunSetup(deps.db, name)));
        } catch (failure) {
          if (!(failure instanceof AppError)) throw failure;
          if (failure.code === "conflict") return sendPage(res, 409, alreadySetUpPage());
          sendPage(res, failure.status, { ...setupFormPage(failure.detail, name.slice(0, 100)), referrerPolicy: "same-origin" });
        }
      });
    });
  });

  return router;
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
