// Reading Strava's JSON answers field by field (nothing in them is trusted to have its type).

export type { JsonObject } from "../json-fields.ts";

export { isObject } from "../json-fields.ts";

/** A finite number, or undefined. */
export function numberOf(value: unknown): number | undefined {
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

/** A non-blank string (trimmed, at most `max` characters), or undefined. */
export function textOf(value: unknown, max = 200): string | undefined {
  return typeof value === "string" && value.trim() !== "" ? value.trim().slice(0, max) : undefined;
}

/** Strava's ids are positive 64-bit integers, sent as JSON numbers (ids past 2^53 lose precision in any JSON reader) or digit strings. */
export function idOf(value: unknown): string | undefined {
  if (typeof value === "number" && Number.isInteger(value) && value > 0) return String(value);
  if (typeof value === "string" && /^[1-9]\d{0,19}$/.test(value)) return value;
  return undefined;
}

/** `{base}{path}`: the API base keeps its own path (`/api/v3`), which `new URL(path, base)` would drop. */
export function apiUrl(base: string, path: string): URL {
  return new URL(`${base.replace(/\/+$/, "")}${path}`);
}
