import { existsSync } from "node:fs";
import path from "node:path";
import { findRepoRoot } from "@svc/db";
import express, { Router, type Response } from "express";
import { notFound } from "../problem-response.ts";

/**
 * The console's Content-Security-Policy: everything from this instance, nothing from
 * elsewhere (the spec forbids third-party scripts). Styles may be inline: the component kit
 * sets CSS variables and chart sizes through style attributes and style elements.
 */
const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

function securityHeaders(res: Response) {
  res.setHeader("Content-Security-Policy", CONSOLE_CSP);
  res.setHeader("Referrer-Policy", "no-referrer");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("X-Frame-Options", "DENY");
}

/** The built console (apps/console/dist), or undefined before `turbo run build` made it. */
export function consoleDistDir(): string | undefined {
  const dir = path.join(findRepoRoot(), "apps", "console", "dist");
  return existsSync(path.join(dir, "index.html")) ? dir : undefined;
}

/**
 * GET /console/*: the admin console's files; any other path under /console answers its
 * index.html (the app routes in the browser). Hashed assets are cached for a year.
 */
export function consoleRouter(distDir: string | undefined = consoleDistDir()): Router {
  const router = Router();
  if (!distDir) {
    router.use("/console", (_req, res) => {
      securityHeaders(res);
      res.status(503).type("text/plain").send("The console is not built: run `npm start` (it builds apps/console) or `pnpm turbo run build`.\n");
    });
    return router;
  }
  router.use(
    "/console/assets",
    express.static(path.join(distDir, "assets"), {
      immutable: true,
      maxAge: "365d",
      setHeaders: securityHeaders,
    }),
    notFound,
  );
  router.get(["/console", "/console/{*rest}"], (_req, res) => {
    securityHeaders(res);
    res.setHeader("Cache-Control", "no-cache");
    res.sendFile(path.join(distDir, "index.html"));
  });
  return router;
}
