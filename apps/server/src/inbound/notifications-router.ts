import express, { Router, type Request, type RequestHandler } from "express";
import { answerProviderNotification, queueNotificationWork, type CoreDeps, type InboundRequest } from "@svc/core";

/** Notification bodies are small (a ping, a few summaries); a larger one is refused with 413. */
export const NOTIFICATION_BODY_LIMIT = "1mb";

const rawBody = express.raw({ type: () => true, limit: NOTIFICATION_BODY_LIMIT });

/**
 * `GET|POST /providers/:slug/notifications`: the inbound address registered at push
 * providers (webhooks, pings, subscription handshakes). The connector verifies and answers;
 * the revocations, pulls and payloads it names are applied before the answer goes out (a lost one would
 * wait for the next scheduled pull). Logs name the provider, status and counts only.
 */
export function notificationsRouter(deps: CoreDeps): Router {
  const router = Router();
  const handler = receive(deps);
  router.get("/providers/:slug/notifications", handler);
  router.post("/providers/:slug/notifications", rawBody, handler);
  return router;
}

function receive(deps: CoreDeps): RequestHandler<{ slug: string }> {
  return async (req, res, next) => {
    const provider = req.params.slug;
    try {
      const answer = await answerProviderNotification(deps, provider, inboundRequestOf(req));
      const pulls = answer.pulls?.length ?? 0;
      const payloads = answer.payloads?.length ?? 0;
      const revoked = answer.revoked?.length ?? 0;
      try {
        await queueNotificationWork(deps, provider, answer);
      } catch (error) {
        req.log.error({ provider, pulls, payloads, revoked, err_name: (error as Error)?.name }, "provider notification not queued");
      }
      req.log.info({ provider, status: answer.status, pulls, payloads, revoked }, "provider notification");
      res.status(answer.status);
      if (answer.body === undefined) res.end();
      else if (typeof answer.body === "string") res.type("text/plain").send(answer.body);
      else res.json(answer.body);
    } catch (error) {
      next(error);
    }
  };
}

function inboundRequestOf(req: Request): InboundRequest {
  const headers: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(req.headers)) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  const query: Record<string, string | undefined> = {};
  for (const [name, value] of Object.entries(req.query as Record<string, unknown>)) {
    const first = Array.isArray(value) ? value[0] : value;
    if (typeof first === "string") query[name] = first;
  }
  return { method: req.method, headers, query, rawBody: Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0) };
}
