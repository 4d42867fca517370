import { access } from "node:fs/promises";
import path from "node:path";
import type { Request, RequestHandler, Response } from "express";

/**
 * The compressed twins the build writes beside each hashed asset (tooling/vite/precompress.ts),
 * best first: brotli is about a fifth smaller than gzip on our bundles.
 */
const TWINS = [
  { encoding: "br", suffix: ".br" },
  { encoding: "gzip", suffix: ".gz" },
] as const;

/** A Vite asset name: one path segment (Vite writes dist/assets flat). */
const ASSET_NAME = /^\/[A-Za-z0-9][A-Za-z0-9._-]*$/;
/** Never served: source maps (a build may keep them for debugging) and the twins by their own names. */
const NOT_SERVED = /\.(map|br|gz)$/;

/** A year: the name of a hashed asset changes with its content. */
export const HASHED_ASSET_CACHE = "public, max-age=31536000, immutable";

/**
 * GET of the hashed files of a built browser app (apps/{name}/dist/assets): the file, or its
 * brotli or gzip twin when the browser accepts that encoding (Accept-Encoding, q-values
 * honoured), with the original's Content-Type, `Vary: Accept-Encoding` and a year of caching.
 * Anything else (source maps, twins asked for by name, missing files) falls through to the 404.
 */
export function builtAssets(dir: string, securityHeaders: (res: Response) => void): RequestHandler {
  return (req, res, next) => {
    if ((req.method !== "GET" && req.method !== "HEAD") || !ASSET_NAME.test(req.path) || NOT_SERVED.test(req.path)) return next();
    const file = path.join(dir, req.path.slice(1));
    sendAsset(req, res, file, securityHeaders).then(
      (sent) => {
        if (!sent) next();
      },
      (error: unknown) => next(error),
    );
  };
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  );
}

/** Sends the asset (false when there is none by that name). */
async function sendAsset(req: Request, res: Response, file: string, securityHeaders: (res: Response) => void): Promise<boolean> {
  if (!(await exists(file))) return false;
  let twin: (typeof TWINS)[number] | undefined;
  for (const candidate of TWINS) {
    if (req.acceptsEncodings(candidate.encoding) === candidate.encoding && (await exists(file + candidate.suffix))) {
      twin = candidate;
      break;
    }
  }
  securityHeaders(res);
  res.setHeader("Cache-Control", HASHED_ASSET_CACHE);
  res.vary("Accept-Encoding");
  // The original's type (text/javascript, text/css, ...), not the twin's.
  res.type(path.extname(file));
  if (twin) res.setHeader("Content-Encoding", twin.encoding);
  await new Promise<void>((resolve, reject) => {
    res.sendFile(twin ? file + twin.suffix : file, { cacheControl: false }, (error?: Error & { code?: string }) => {
      // A browser that went away mid-answer is no failure of ours.
      if (!error || res.headersSent || error.code === "ECONNABORTED") resolve();
      else reject(error);
    });
  });
  return true;
}
