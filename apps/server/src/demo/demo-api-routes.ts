import express, { type Request, type RequestHandler, type Response, type Router } from "express";
import { DEMO_MAX_WINDOW_DAYS, demoPage, demoProfile, isDemoCollection, type DemoCollection } from "@svc/providers/demo";
import type { DemoGrants } from "./demo-grants.ts";

// GET /demo/api/v1/profile and GET /demo/api/v1/<collection>?start=&end= with a demo access
// token. Answers are generated for the token's demo user (packages/providers/src/demo).

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const DAY_MS = 86_400_000;

interface DemoCaller {
  userId: string;
  scopes: DemoCollection[];
}

function callerOf(res: Response): DemoCaller {
  return res.locals.demoCaller as DemoCaller;
}

function refuse(res: Response, status: number, error: string, message: string): void {
  res.status(status).json({ error, message });
}

function bearer(grants: DemoGrants): RequestHandler {
  return (req, res, next) => {
    const match = /^Bearer (\S+)$/i.exec(req.get("authorization") ?? "");
    if (!match) {
      res.setHeader("WWW-Authenticate", 'Bearer realm="svc demo"');
      return refuse(res, 401, "unauthorized", "An access token is required.");
    }
    const caller = grants.verifyAccessToken(match[1]!);
    if (!caller) {
      res.setHeader("WWW-Authenticate", 'Bearer realm="svc demo", error="invalid_token"');
      return refuse(res, 401, "invalid_token", "The access token is unknown, expired or revoked.");
    }
    res.locals.demoCaller = caller;
    next();
  };
}

function instant(req: Request, name: string): Date | null {
  const value = req.query[name];
  if (typeof value !== "string" || !RFC3339.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

export function demoApiRouter(grants: DemoGrants): Router {
  const router = express.Router();
  router.use((_req, res, next) => {
    res.setHeader("Cache-Control", "no-store");
    next();
  });
  router.use(bearer(grants));

  router.get("/v1/profile", (_req, res) => {
    res.json(demoProfile(callerOf(res).userId));
  });

  router.get("/v1/:collection", (req, res) => {
    const collection = req.params.collection ?? "";
    if (!isDemoCollection(collection)) return refuse(res, 404, "not_found", "No such collection.");
    const caller = callerOf(res);
    if (!caller.scopes.includes(collection)) {
      res.setHeader("WWW-Authenticate", `Bearer realm="svc demo", error="insufficient_scope", scope="${collection}"`);
      return refuse(res, 403, "insufficient_scope", `The grant does not include the ${collection} scope.`);
    }
    const start = instant(req, "start");
    const end = instant(req, "end");
    if (!start || !end) return refuse(res, 400, "invalid_request", "start and end are required RFC 3339 times with an offset.");
    if (end < start) return refuse(res, 400, "invalid_request", "end is before start.");
    if (end.getTime() - start.getTime() > DEMO_MAX_WINDOW_DAYS * DAY_MS) {
      return refuse(res, 400, "invalid_request", `A request covers at most ${DEMO_MAX_WINDOW_DAYS} days.`);
    }
    res.json(demoPage(collection, caller.userId, { start, end }, new Date()));
  });

  router.use((_req, res) => refuse(res, 404, "not_found", "No such route of the demo API."));
  return router;
}
