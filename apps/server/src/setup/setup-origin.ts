import type { Request } from "express";
import { fetchSiteIsSameOrigin, originIsThisInstance, reachedThroughRebinding } from "../pages/request-origin.ts";

/**
 * Whether a POST of the setup form may claim the instance: the connect page's same-origin rule
 * and, as /mcp does, no DNS rebinding (else a web page could claim a local instance and read
 * the keys it answers).
 */
export function setupPostAllowed(req: Request, publicUrl: string): boolean {
  return fetchSiteIsSameOrigin(req) && originIsThisInstance(req, publicUrl) && !reachedThroughRebinding(req, publicUrl);
}
