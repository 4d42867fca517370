import { appRouter } from "@svc/api";
import type { Request } from "express";

/** A route of /v1 as trpc-to-openapi matches it: case-insensitive, one path segment per parameter. */
interface V1Route {
  pattern: RegExp;
  template: string;
}

/** The /v1 routes by method, then by their number of `/` (so a lookup tests a handful of patterns). */
const V1_ROUTES = v1Routes();

/**
 * The route template that answered a request, for metrics: an express route
 * (`/oauth/:provider/callback`), the OpenAPI path of a /v1 procedure (`/v1/users/{id}`), the
 * mount of a middleware that answered (`/trpc`, `/console/assets`), or `unmatched` (404s).
 * Never the path itself: it holds ids and tokens. Call it once the response finished.
 */
export function requestRoute(req: Request): string {
  const path: unknown = req.route?.path;
  if (typeof path === "string") return req.baseUrl + path;
  if (Array.isArray(path)) return req.baseUrl + path.join(",");
  // /v1 is one middleware: the procedure is found from the URL, as the middleware found it.
  if (req.baseUrl === "/v1") return v1Route(req.method, req.originalUrl) ?? "/v1";
  return req.baseUrl === "" ? "unmatched" : req.baseUrl;
}

function v1Route(method: string, url: string): string | undefined {
  const candidates = V1_ROUTES.get(method)?.[slashesOf(url)];
  if (candidates === undefined) return undefined;
  for (const route of candidates) if (route.pattern.test(url)) return route.template;
  return undefined;
}

/** The `/` of a URL's path, a trailing one left out (trpc-to-openapi ignores it). */
function slashesOf(url: string): number {
  let slashes = 0;
  let end = 0;
  for (; end < url.length; end++) {
    const code = url.charCodeAt(end);
    if (code === 63 /* ? */) break;
    if (code === 47 /* / */) slashes++;
  }
  return end > 1 && url.charCodeAt(end - 1) === 47 ? slashes - 1 : slashes;
}

function v1Routes(): Map<string, V1Route[][]> {
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { meta?: { openapi?: { method: string; path: string } } } }>;
  const routes = new Map<string, V1Route[][]>();
  for (const procedure of Object.values(procedures)) {
    const openapi = procedure._def.meta?.openapi;
    if (openapi === undefined) continue;
    const template = openapi.path;
    const source = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/?]+");
    const pattern = new RegExp(`^${source}/?(?:\\?|$)`, "i");
    const byLength = routes.get(openapi.method) ?? [];
    (byLength[slashesOf(template)] ??= []).push({ pattern, template });
    routes.set(openapi.method, byLength);
  }
  return routes;
}
