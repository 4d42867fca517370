/**
 * SMART Health Links (https://docs.smarthealthit.org/smart-health-links/spec): the payload
 * a link carries and its two forms, the bare `shlink:/…` and the viewer URL `…#shlink:/…`.
 */
export interface ShlinkPayload {
  /** The manifest URL. */
  url: string;
  /** The file's key: 32 random bytes, base64url (43 characters). */
  key: string;
  /** Expiry, seconds since the epoch. */
  exp: number;
  /** `P`: a passcode is needed. */
  flag?: string;
  label: string;
  v: 1;
}

export function shlinkOf(payload: ShlinkPayload): string {
  return `shlink:/${Buffer.from(JSON.stringify(payload)).toString("base64url")}`;
}

/** The payload of a `shlink:/…`, bare or after a viewer URL's `#`; null when it is not one. */
export function parseShlink(link: string): ShlinkPayload | null {
  const at = link.indexOf("shlink:/");
  if (at === -1) return null;
  try {
    return JSON.parse(Buffer.from(link.slice(at + "shlink:/".length), "base64url").toString("utf8")) as ShlinkPayload;
  } catch {
    return null;
  }
}
