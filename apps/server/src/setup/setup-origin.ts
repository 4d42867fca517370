import type { Request } from "express";
import { fetchSiteIsSameOrigin, hostIsThisInstance, originIsThisInstance } from "../pages/request-origin.ts";

/**
 * Whether a POST of the setup form may claim the instance: the connect page's same-origin rule,
 * and a Host that surely names this instance (no DNS rebinding on any interface: else a web
 * page could claim an instance it can reach and read the keys it answers). The setup takes no
 * secret, so it is stricter than /mcp, which refuses rebinding on loopback only.
 */
export function setupPostAllowed(req: Request, publicUrl: string): boolean {
  return fetchSiteIsSameOrigin(req) && originIsThisInstance(req, publicUrl) && hostIsThisInstance(req, publicUrl);
}
