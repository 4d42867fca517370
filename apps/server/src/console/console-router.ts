import path from "node:path";
import { Router } from "express";
import { appSecurityHeaders as securityHeaders, builtAppDir } from "../pages/app-headers.ts";
import { builtAssets } from "../pages/built-assets.ts";
import { notFound } from "../problem-response.ts";

/** The built console (apps/console/dist), or undefined before `turbo run build` made it. */
export function consoleDistDir(): string | undefined {
  return builtAppDir("console");
}

/**
 * GET /console/*: the admin console's files; any other path under /console answers its
 * index.html (the app routes in the browser). Hashed assets are sent precompressed (brotli or
 * gzip, by Accept-Encoding) and cached for a year; source maps are never served.
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
  router.use("/console/assets", builtAssets(path.join(distDir, "assets"), securityHeaders), notFound);
  router.get(["/console", "/console/{*rest}"], (_req, res) => {
    securityHeaders(res);
    res.setHeader("Cache-Control", "no-cache");
    res.sendFile(path.join(distDir, "index.html"));
  });
  return router;
}
