import { base64UrlToBytes } from "./base64url.ts";

/**
 * A SMART Health Link's payload (https://docs.smarthealthit.org/smart-health-links/spec), as
 * the viewer URL `…/share#shlink:/<base64url JSON>` carries it. The fragment never reaches the
 * server; the key stays in memory.
 */
export interface ShlinkPayload {
  /** The manifest URL. */
  url: string;
  /** The file's key: 32 bytes. */
  key: Uint8Array<ArrayBuffer>;
  /** Expiry, seconds since the epoch, when the link has one. */
  exp: number | null;
  /** Whether a passcode is needed (flag `P`). */
  passcode: boolean;
  label: string | null;
}

export type ParsedLink = { ok: true; link: ShlinkPayload } | { ok: false; reason: string };

const PREFIX = "shlink:/";
const KEY_BYTES = 32;

const fail = (reason: string): ParsedLink => ({ ok: false, reason });

function decodeJson(encoded: string): unknown {
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(base64UrlToBytes(encoded)));
  } catch {
    return undefined;
  }
}

function manifestUrl(value: unknown): string | null {
  if (typeof value !== "string") return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * The payload of a link: a location hash (`#shlink:/…`), a viewer URL or a bare `shlink:/…`.
 * Checks what the viewer needs (manifest URL, a 32-byte key, v 1); the reason says what is wrong.
 */
export function parseShlink(link: string): ParsedLink {
  const at = link.indexOf(PREFIX);
  if (at === -1) return fail("This address does not contain a share link.");
  const payload = decodeJson(link.slice(at + PREFIX.length).trim());
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return fail("The share link is damaged: it could not be read.");
  const fields = payload as Record<string, unknown>;
  if (fields.v !== undefined && fields.v !== 1) return fail("This share link uses a version this page does not know.");
  const url = manifestUrl(fields.url);
  if (!url) return fail("The share link is damaged: it has no valid address.");
  let key: Uint8Array<ArrayBuffer>;
  try {
    key = typeof fields.key === "string" ? base64UrlToBytes(fields.key) : new Uint8Array();
  } catch {
    key = new Uint8Array();
  }
  if (key.length !== KEY_BYTES) return fail("The share link is damaged: its key is incomplete.");
  const flag = typeof fields.flag === "string" ? fields.flag : "";
  if (flag.includes("U")) return fail("This kind of share link (direct file) is not supported here.");
  const exp = typeof fields.exp === "number" && Number.isFinite(fields.exp) ? fields.exp : null;
  const label = typeof fields.label === "string" && fields.label.trim() !== "" ? fields.label.trim().slice(0, 80) : null;
  return { ok: true, link: { url, key, exp, passcode: flag.includes("P"), label } };
}

/** Whether the link's expiry has passed. */
export const linkExpired = (link: ShlinkPayload, now = Date.now()): boolean => link.exp !== null && link.exp * 1000 <= now;
