import { Router } from "express";

/**
 * The instance's one icon, linked from every page it serves (console, share viewer, connect,
 * consent, first-run setup) as /favicon.svg. /favicon.ico answers the same image for clients
 * that ask for it unprompted: browsers show an SVG whatever the path says.
 */
export const FAVICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#0b57d0"/>' +
  '<path d="M5 17h6l3-7 4 13 3-6h6" fill="none" stroke="#fff" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/></svg>\n';

export const FAVICON_PATH = "/favicon.svg";

/** GET /favicon.svg and /favicon.ico: the icon, cached for a day (its URL never changes). */
export function faviconRouter(): Router {
  const router = Router();
  router.get([FAVICON_PATH, "/favicon.ico"], (_req, res) => {
    res.setHeader("Cache-Control", "public, max-age=86400");
    // Opened as a document, the image may run nothing.
    res.setHeader("Content-Security-Policy", "default-src 'none'");
    res.setHeader("X-Content-Type-Options", "nosniff");
    res.type("image/svg+xml").send(FAVICON_SVG);
  });
  return router;
}
