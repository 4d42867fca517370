import type { Request } from "express";

const LOOPBACK_HOSTNAMES = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The hostname of a Host header value (`example.com:8080`, `[::1]:8080`), lower case. */
function hostnameOf(host: string): string {
  return host.toLowerCase().replace(/:\d+$/, "");
}

function isLoopbackAddress(address: string | undefined): boolean {
  return address !== undefined && (address === "::1" || address.startsWith("127.") || address.startsWith("::ffff:127."));
}

/**
 * Why a request to /mcp from a browser page of another site is refused, or undefined when
 * it is not. Cross-origin: `Sec-Fetch-Site: cross-site`, or an Origin that is neither the
 * Host the request was sent to nor the public URL. DNS rebinding: a request that reached a
 * loopback listener under a Host name that is not loopback nor the public URL's.
 */
export function crossOriginReason(req: Request, publicUrl: string): string | undefined {
  const host = req.get("host") ?? "";
  const publicOrigin = new URL(publicUrl);
  if (req.get("sec-fetch-site") === "cross-site") return "Cross-site browser requests to /mcp are refused.";
  const origin = req.get("origin");
  if (origin !== undefined && origin !== publicOrigin.origin) {
    let originHost: string | undefined;
    try {
      originHost = new URL(origin).host;
    } catch {
      originHost = undefined;
    }
    if (originHost === undefined || originHost.toLowerCase() !== host.toLowerCase()) return "Requests to /mcp from another origin are refused.";
  }
  if (isLoopbackAddress(req.socket.localAddress)) {
    const hostname = hostnameOf(host);
    if (!LOOPBACK_HOSTNAMES.has(hostname) && hostname !== publicOrigin.hostname.toLowerCase()) {
      return "This local instance answers /mcp only under a loopback host name or its public URL.";
    }
  }
  return undefined;
}
