import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";

const VALID_REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

declare global {
  namespace Express {
    interface Request {
      /** The X-Request-Id of this call. */
      requestId: string;
    }
  }
}

/** Keeps a valid client X-Request-Id, otherwise makes one; every answer carries it. */
export const requestId: RequestHandler = (req, res, next) => {
  const sent = req.get("x-request-id");
  req.requestId = sent && VALID_REQUEST_ID.test(sent) ? sent : randomUUID();
  res.setHeader("X-Request-Id", req.requestId);
  next();
};
