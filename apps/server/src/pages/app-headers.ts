import { existsSync } from "node:fs";
import path from "node:path";
import { findRepoRoot } from "@svc/db";
import type { Response } from "express";

/**
 * The Content-Security-Policy of the browser apps svc serves (the admin console, the share
 * viewer): everything from this instance, nothing from elsewhere (the spec forbids third-party
 * scripts). Styles may be inline: the component kit sets CSS variables and chart sizes through
 * style attributes and style elements. Data is fetched from this instance only.
 */
export const APP_CSP = [
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

/** The headers every file of a browser app is served with: its CSP, no referrer, no sniffing, no framing. */
export function appSecurityHeaders(res: Response): void {
  res.setHeader("Content-Security-Policy", APP_CSP);
  res.setHeader("Referrer-Policy", "no-referrer");
  res.setHeader("X-Content-Type-Options", "nosniff");
  res.setHeader("X-Frame-Options", "DENY");
}

/** A built browser app (apps/{name}/dist), or undefined before `turbo run build` made it. */
export function builtAppDir(name: string): string | undefined {
  const dir = path.join(findRepoRoot(), "apps", name, "dist");
  return existsSync(path.join(dir, "index.html")) ? dir : undefined;
}
