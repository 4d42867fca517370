import { isIP } from "node:net";
import type { Request } from "express";

/*
 * Where a browser request came from, for the routes that must refuse other sites: the forms
 * of the hosted pages (connect, first-run setup) and /mcp.
 */

const LOOPBACK_HOSTNAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The hostname of a Host header value (`example.com:8080`, `[::1]:8080`), lower case. */
function hostnameOf(host: string): string {
  return host.toLowerCase().replace(/:\d+$/, "");
}

function isLoopbackAddress(address: string | undefined): boolean {
  return address !== undefined && (address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127."));
}

/** A browser's Sec-Fetch-Site, when sent, says the request came from this origin (or was typed in). */
export function fetchSiteIsSameOrigin(req: Request): boolean {
  const fetchSite = req.get("sec-fetch-site");
  return !fetchSite || fetchSite === "same-origin" || fetchSite === "none";
}

/** Origin, when sent, is this instance: its public URL's, or the Host the request was sent to. */
export function originIsThisInstance(req: Request, publicUrl: string): boolean {
  const origin = req.get("origin");
  if (origin === undefined || origin === new URL(publicUrl).origin) return true;
  try {
    return new URL(origin).host.toLowerCase() === (req.get("host") ?? "").toLowerCase();
  } catch {
    return false;
  }
}

/**
 * DNS rebinding: a request that reached a loopback listener under a Host name that is neither
 * loopback nor the public URL's (a web page whose name was rebound to 127.0.0.1).
 */
export function reachedThroughRebinding(req: Request, publicUrl: string): boolean {
  if (!isLoopbackAddress(req.socket.localAddress)) return false;
  const hostname = hostnameOf(req.get("host") ?? "");
  return !LOOPBACK_HOSTNAMES.has(hostname) && hostname !== new URL(publicUrl).hostname.toLowerCase();
}

/**
 * Whether the Host names this instance for certain: a loopback name, an IP literal, or the
 * public URL's host. Any other name may be a web page's own name rebound to this instance's
 * address (on any interface: a LAN or container address as well as loopback).
 */
export function hostIsThisInstance(req: Request, publicUrl: string): boolean {
  const hostname = hostnameOf(req.get("host") ?? "");
  if (LOOPBACK_HOSTNAMES.has(hostname) || hostname === new URL(publicUrl).hostname.toLowerCase()) return true;
  return isIP(hostname.replace(/^\[(.*)\]$/, "$1")) !== 0;
}
