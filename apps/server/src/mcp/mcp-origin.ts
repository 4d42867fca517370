import type { Request } from "express";
import { originIsThisInstance, reachedThroughRebinding } from "../pages/request-origin.ts";

/**
 * Why a request to /mcp from a browser page of another site is refused, or undefined when
 * it is not. Cross-origin: `Sec-Fetch-Site: cross-site`, or an Origin that is neither the
 * Host the request was sent to nor the public URL. DNS rebinding: a request that reached a
 * loopback listener under a Host name that is not loopback nor the public URL's.
 */
export function crossOriginReason(req: Request, publicUrl: string): string | undefined {
  if (req.get("sec-fetch-site") === "cross-site") return "Cross-site browser requests to /mcp are refused.";
  if (!originIsThisInstance(req, publicUrl)) return "Requests to /mcp from another origin are refused.";
  if (reachedThroughRebinding(req, publicUrl)) return "This local instance answers /mcp only under a loopback host name or its public URL.";
  return undefined;
}
