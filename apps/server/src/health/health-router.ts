import { AppError, toProblem, type Problem } from "@svc/core";
import { Router } from "express";
import { sendProblem } from "../problem-response.ts";
import type { Readiness, ReadinessReport } from "./readiness.ts";

const FAILED_CHECK_DETAIL: Record<keyof ReadinessReport["checks"], string> = {
  shutdown: "The process is shutting down.",
  database: "The database did not answer.",
};

/**
 * Probes for orchestrators, outside /v1, without authentication: GET /healthz (liveness:
 * the event loop answers) and GET /readyz (readiness: 200, or a 503 problem naming the
 * failed checks). Mounted ahead of the access log so that probing does not flood it.
 */
export function healthRouter(readiness: Readiness): Router {
  const router = Router();
  router.get("/healthz", (_req, res) => {
    res.setHeader("Cache-Control", "no-store");
    res.json({ status: "ok" });
  });
  router.get("/readyz", async (req, res) => {
    const { ready, checks } = await readiness.check();
    res.setHeader("Cache-Control", "no-store");
    if (ready) {
      res.json({ status: "ok", checks });
      return;
    }
    const failed = (Object.keys(checks) as (keyof typeof checks)[]).filter((name) => checks[name] === "fail");
    const detail = `Not ready. ${failed.map((name) => FAILED_CHECK_DETAIL[name]).join(" ")}`;
    const problem: Problem & { checks: ReadinessReport["checks"] } = {
      ...toProblem(new AppError("service_unavailable", detail), req.requestId),
      checks,
    };
    sendProblem(res, problem);
  });
  return router;
}
