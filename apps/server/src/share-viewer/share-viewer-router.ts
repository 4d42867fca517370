import path from "node:path";
import { Router } from "express";
import { appSecurityHeaders, builtAppDir } from "../pages/app-headers.ts";
import { builtAssets } from "../pages/built-assets.ts";
import { notFound } from "../problem-response.ts";

/** The built share viewer (apps/share-viewer/dist), or undefined before `turbo run build` made it. */
export function shareViewerDistDir(): string | undefined {
  return builtAppDir("share-viewer");
}

/**
 * The page a share link opens: GET /share (and /share/) answers the viewer's index.html, which
 * reads the link from the URL fragment (never sent here) and fetches the manifest and file
 * from this instance; GET /share/assets/* its hashed files, precompressed by Accept-Encoding
 * (404 when missing; source maps are never served). Nothing else
 * under /share is answered here: the share router (apps/server/src/share) serves
 * /share/{share_id}/manifest and /file. The page is never cached (it is the entry point of a
 * secret-bearing URL) and sends no referrer.
 */
export function shareViewerRouter(distDir: string | undefined = shareViewerDistDir()): Router {
  const router = Router({ strict: false });
  if (!distDir) {
    router.get(["/share", "/share/assets/{*rest}"], (_req, res) => {
      appSecurityHeaders(res);
      res.setHeader("Cache-Control", "no-store");
      res.status(503).type("text/plain").send("The share viewer is not built: run `npm start` (it builds apps/share-viewer) or `pnpm turbo run build`.\n");
    });
    return router;
  }
  router.use("/share/assets", builtAssets(path.join(distDir, "assets"), appSecurityHeaders), notFound);
  router.get("/share", (_req, res) => {
    appSecurityHeaders(res);
    res.setHeader("Cache-Control", "no-store");
    res.sendFile(path.join(distDir, "index.html"));
  });
  return router;
}
