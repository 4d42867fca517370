import type { ProviderClient } from "@svc/core";
import { queryTime } from "./times.ts";

export const ENVIRONMENTS = ["production", "sandbox"] as const;

/**
 * The API host of the application's environment: `api` for production, `sandbox_api`
 * for sandbox (each overridable by SVC_DEXCOM_API_URL / SVC_DEXCOM_SANDBOX_API_URL).
 */
export function apiBase(client: Pick<ProviderClient, "urls" | "keys">): string {
  return client.keys.ENVIRONMENT === "sandbox" ? (client.urls.sandbox_api ?? client.urls.api) : client.urls.api;
}

/** `{base}{path}?query`, keeping any path of the base (a proxy prefix). */
export function apiUrl(base: string, path: string, query: Record<string, string> = {}): URL {
  const url = new URL(base.replace(/\/+$/, "") + path);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url;
}

/** Dexcom answers at most 30 days per egvs or events request. */
export const MAX_WINDOW_MS = 30 * 86_400_000;

/** The window cut into consecutive pieces of at most 30 days, as startDate/endDate pairs. */
export function windowPieces(window: { start: Date; end: Date }): Array<{ startDate: string; endDate: string }> {
  const pieces: Array<{ startDate: string; endDate: string }> = [];
  for (let from = window.start.getTime(); from < window.end.getTime(); from += MAX_WINDOW_MS) {
    const to = Math.min(from + MAX_WINDOW_MS, window.end.getTime());
    pieces.push({ startDate: queryTime(new Date(from)), endDate: queryTime(new Date(to)) });
  }
  return pieces;
}
