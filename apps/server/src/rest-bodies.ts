import express, { type RequestHandler } from "express";
import { AppError, toProblem } from "@svc/core";
import { sendProblem } from "./problem-response.ts";

export const JSON_BODY_LIMIT = "1mb";

const METHODS_WITH_BODY = new Set(["POST", "PUT", "PATCH"]);

const parseJson = express.json({ limit: JSON_BODY_LIMIT, type: () => true, strict: true });

/**
 * Far deeper than any body of the API. JSON.parse reads a megabyte of `[[[[…` fine, but the
 * JSON.stringify tRPC runs on the parsed body overflows the stack (a 500) at a few thousand levels.
 */
const MAX_BODY_DEPTH = 32;

/**
 * Bodies of /v1 calls: JSON only (415 otherwise); an empty body reads as `{}` so a POST
 * without fields needs no body. Malformed JSON and bodies over the limit reach the error
 * handler as 400 and 413 problems.
 */
export const restBodies: RequestHandler = (req, res, next) => {
  if (!METHODS_WITH_BODY.has(req.method)) return next();
  const hasBody = Number(req.get("content-length") ?? 0) > 0 || req.get("transfer-encoding") !== undefined;
  if (!hasBody) {
    req.headers["content-type"] = "application/json";
    req.body = {};
    return next();
  }
  if (!req.is("application/json") && !req.is("application/*+json")) {
    return sendProblem(res, toProblem(new AppError("unsupported_media_type", "Send the body as application/json."), req.requestId));
  }
  req.headers["content-type"] = "application/json";
  parseJson(req, res, (error?: unknown) => {
    if (error) return next(error);
    if (typeof req.body !== "object" || req.body === null || Array.isArray(req.body)) {
      return sendProblem(res, toProblem(new AppError("bad_request", "The body must be a JSON object."), req.requestId));
    }
    if (nestedDeeperThan(req.body, MAX_BODY_DEPTH)) {
      return sendProblem(res, toProblem(new AppError("bad_request", `The body is nested more than ${MAX_BODY_DEPTH} levels deep.`), req.requestId));
    }
    next();
  });
};

function nestedDeeperThan(value: unknown, levels: number): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (levels === 0) return true;
  return Object.values(value).some((child) => nestedDeeperThan(child, levels - 1));
}
