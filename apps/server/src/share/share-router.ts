import { AppError, openShareManifest, serveShareFile, toProblem, type CoreDeps, type ShareGone } from "@svc/core";
import express, { type Request, type Response } from "express";
import { z } from "zod";
import { sendProblem } from "../problem-response.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const parseJson = express.json({ limit: "4kb", type: () => true });

/** A SMART Health Links manifest request. */
const ZManifestRequest = z.object({
  recipient: z.string().min(1).max(500),
  passcode: z.string().max(1000).optional(),
  embeddedLengthMax: z.number().int().min(0).optional(),
});

/** SMART Health Links clients are web apps of any origin: every answer here may be read cross-origin. */
function allowAnyOrigin(res: Response): void {
  res.setHeader("Access-Control-Allow-Origin", "*");
  res.setHeader("Cache-Control", "no-store");
  res.setHeader("Referrer-Policy", "no-referrer");
}

function problem(req: Request, res: Response, error: AppError): void {
  allowAnyOrigin(res);
  sendProblem(res, toProblem(error, req.requestId));
}

const notFound = () => new AppError("not_found", "No such share, or it expired or was revoked.");

const REVOKED_DETAIL = {
  owner: "The person who shared this link revoked it.",
  passcode_attempts: "This link was revoked after too many wrong passcodes.",
  consent: "This link was revoked: the data it held was withdrawn.",
  provider_erased: "This link was revoked: the data it held was deleted.",
} as const;

/**
 * The 404 of a share that cannot be opened, saying why to whoever holds its link: members
 * `share_status` (`revoked` or `expired`) and `revoked_reason`; an unknown share says nothing more.
 */
function goneProblem(req: Request, res: Response, gone: ShareGone): void {
  if (gone.status === "unknown") return problem(req, res, notFound());
  const detail = gone.status === "revoked" ? REVOKED_DETAIL[gone.reason] : "This link expired.";
  allowAnyOrigin(res);
  res.status(404).type("application/problem+json");
  res.send(
    JSON.stringify({
      ...toProblem(new AppError("not_found", detail), req.requestId),
      share_status: gone.status,
      ...(gone.status === "revoked" && { revoked_reason: gone.reason }),
    }),
  );
}

/**
 * Opening a share link (SMART Health Links): POST /share/{share_id}/manifest with
 * `{recipient, passcode?, embeddedLengthMax?}` answers the manifest, whose one file is the
 * encrypted FHIR Bundle (embedded, or a short-lived `location` served by
 * GET /share/{share_id}/file when larger than embeddedLengthMax). No credential: the link's
 * key decrypts the file, the passcode (when set) gates it. Bodies are never logged (they hold
 * passcodes). GET /share itself is left to the viewer page.
 */
export function shareRouter(deps: CoreDeps): express.Router {
  const router = express.Router();

  router.options(["/share/:shareId/manifest", "/share/:shareId/file"], (_req, res) => {
    allowAnyOrigin(res);
    res.setHeader("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
    res.setHeader("Access-Control-Allow-Headers", "Content-Type");
    res.setHeader("Access-Control-Max-Age", "600");
    res.status(204).end();
  });

  router.post("/share/:shareId/manifest", (req, res, next) => {
    parseJson(req, res, (error?: unknown) => {
      void (async () => {
        if (!UUID.test(req.params.shareId)) return problem(req, res, notFound());
        if (error) return problem(req, res, new AppError("bad_request", "The body must be JSON: {recipient, passcode?}."));
        const body = ZManifestRequest.safeParse(req.body);
        if (!body.success) {
          return problem(req, res, new AppError("bad_request", "The body must be {recipient: string, passcode?: string, embeddedLengthMax?: integer}."));
        }
        const opened = await openShareManifest(deps, req.params.shareId.toLowerCase(), body.data);
        if (opened.kind === "gone") return goneProblem(req, res, opened.gone);
        allowAnyOrigin(res);
        if (opened.kind === "passcode") {
          const detail = opened.remainingAttempts === 0 ? "Wrong passcode; the link is now revoked." : "The passcode is missing or wrong.";
          res.status(401).type("application/problem+json");
          res.send(JSON.stringify({ ...toProblem(new AppError("unauthorized", detail), req.requestId), remainingAttempts: opened.remainingAttempts }));
          return;
        }
        res.status(200).json(opened.manifest);
      })().catch((failure: unknown) => (failure instanceof AppError ? problem(req, res, failure) : next(failure)));
    });
  });

  router.get("/share/:shareId/file", (req, res, next) => {
    void (async () => {
      const ticket = typeof req.query.t === "string" ? req.query.t : "";
      if (!UUID.test(req.params.shareId) || ticket === "") return problem(req, res, notFound());
      const served = await serveShareFile(deps, req.params.shareId.toLowerCase(), ticket);
      if (served.kind === "gone") return goneProblem(req, res, served.gone);
      allowAnyOrigin(res);
      res.status(200).type("application/jose").send(served.jwe);
    })().catch((failure: unknown) => (failure instanceof AppError ? problem(req, res, failure) : next(failure)));
  });

  return router;
}
