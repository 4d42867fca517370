// Which addresses and URLs a webhook may be sent to (the SSRF rules of the spec).
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";

export const WEBHOOK_URL_MAX_LENGTH = 2048;

export const ADDRESS_NOT_ALLOWED =
  "address not allowed: the host resolves to a private, loopback or link-local address";

/** Global unicast space (2000::/3): every public IPv6 address lies in it. */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR("2000::/3");
/** NAT64 well-known prefix (RFC 6052): the last 32 bits are the IPv4 address reached. */
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR("64:ff9b::/96");

/**
 * True when `ip` is a public unicast address a webhook may reach. IPv4-mapped IPv6 is
 * unwrapped first; NAT64 (64:ff9b::/96) and 6to4 (2002::/16) addresses are judged by the
 * IPv4 address they embed. Everything ipaddr.js does not call `unicast` is refused
 * (private, loopback, link-local, unique-local, multicast, unspecified, broadcast,
 * reserved, carrier-grade NAT, Teredo, ...), and so is IPv6 outside 2000::/3.
 */
export function isPublicAddress(ip: string): boolean {
  if (isIP(ip) === 0) return false;
  const address = ipaddr.process(ip);
  if (address instanceof ipaddr.IPv4) return address.range() === "unicast";

  const v6 = address;
  const embedded = embeddedIPv4(v6);
  if (embedded !== null) return embedded.range() === "unicast";
  return v6.range() === "unicast" && v6.match(GLOBAL_UNICAST_V6);
}

/** True for 127.0.0.0/8, ::1 and IPv4-mapped loopback. */
export function isLoopbackAddress(ip: string): boolean {
  if (isIP(ip) === 0) return false;
  return ipaddr.process(ip).range() === "loopback";
}

function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4 | null {
  const p = v6.parts;
  if (v6.match(NAT64_WELL_KNOWN)) return ipv4FromParts(p[6] ?? 0, p[7] ?? 0);
  if (v6.range() === "6to4") return ipv4FromParts(p[1] ?? 0, p[2] ?? 0);
  return null;
}

function ipv4FromParts(high: number, low: number): ipaddr.IPv4 {
  return new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);
}

export type WebhookUrlCheck = { ok: true } | { ok: false; reason: string };

/**
 * The rules for an endpoint URL when it is created or changed. The address rule is
 * checked here only for IP-literal hosts and loopback names; a DNS name is checked on
 * every connection by the guarded agent, after resolution.
 */
export function checkWebhookUrl(url: string, options: { allowPrivate: boolean }): WebhookUrlCheck {
  if (url.length > WEBHOOK_URL_MAX_LENGTH) {
    return refuse(`the URL is longer than ${WEBHOOK_URL_MAX_LENGTH} characters`);
  }
  const parsed = URL.parse(url);
  if (parsed === null || parsed.hostname === "") return refuse("the URL is not a valid absolute URL");
  if (parsed.username !== "" || parsed.password !== "") {
    return refuse("the URL must not contain a user name or password");
  }

  const host = hostOf(parsed);
  const loopback = isLoopbackHost(host);
  if (parsed.protocol === "http:") {
    if (!options.allowPrivate) return refuse("the URL must use https");
    if (!loopback) return refuse("http is allowed only for loopback hosts (localhost, 127.0.0.0/8, ::1)");
  } else if (parsed.protocol !== "https:") {
    return refuse("the URL must use https");
  }

  if (!options.allowPrivate && (loopback || (isIP(host) !== 0 && !isPublicAddress(host)))) {
    return refuse("the URL points at a private, loopback or link-local address");
  }
  return { ok: true };
}

/** The hostname without IPv6 brackets and without a trailing dot, lower case. */
function hostOf(url: URL): string {
  const host = url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname;
  return host.replace(/\.$/, "").toLowerCase();
}

/** `localhost` and `*.localhost` always mean loopback (RFC 6761), like 127.0.0.0/8 and ::1. */
function isLoopbackHost(host: string): boolean {
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  return isLoopbackAddress(host);
}

function refuse(reason: string): WebhookUrlCheck {
  return { ok: false, reason };
}
