// Reading a provider's JSON field by field: nothing in an answer is trusted to have its type.

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A trimmed, non-empty string of at most `max` characters, or null. */
export function textOf(value: unknown, max = 200): string | null {
  return typeof value === "string" && value.trim() !== "" ? value.trim().slice(0, max) : null;
}

/** A finite JSON number, or null. */
export function numberOf(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** A finite number, also from a numeric string (some providers send values or int64 fields as strings); null otherwise. */
export function numericOf(value: unknown): number | null {
  if (typeof value === "number") return Number.isFinite(value) ? value : null;
  if (typeof value === "string" && /^\s*-?\d+(\.\d+)?\s*$/.test(value)) return Number(value);
  return null;
}

/** A YYYY-MM-DD date of the calendar, or null. */
export function calendarDateOf(value: unknown): string | null {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return null;
  const ms = Date.parse(`${value}T00:00:00Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 10) === value ? value : null;
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** An ISO 8601 date-time with its zone designator, or null. */
export function instantOf(value: unknown): Date | null {
  if (typeof value !== "string" || !INSTANT.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A notification's body as a JSON object: null when it is empty, over `maxBytes`, not JSON or not an object. */
export function jsonObjectBody(rawBody: Buffer, maxBytes: number): JsonObject | null {
  if (rawBody.length === 0 || rawBody.length > maxBytes) return null;
  try {
    const parsed: unknown = JSON.parse(rawBody.toString("utf8"));
    return isObject(parsed) ? parsed : null;
  } catch {
    return null;
  }
}
