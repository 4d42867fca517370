// Reading Suunto's JSON: workouts are keyed by a `workoutKey` string, times are epoch
// milliseconds, durations seconds, distances meters, energy kcal (workouts) or joules (24/7).

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A workout key (Suunto's id of a workout, hex today): letters, digits, `-` and `_`; null otherwise. */
export function workoutKeyOf(value: unknown): string | null {
  return typeof value === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(value) ? value : null;
}

/** A finite non-negative number; null when absent or not one. */
export function figure(value: unknown): number | null {
  return typeof value === "number" && Number.isFinite(value) && value >= 0 ? value : null;
}

/** An instant from epoch milliseconds (after 2000, before 2100); null otherwise. */
export function instantOfMs(value: unknown): Date | null {
  if (typeof value !== "number" || !Number.isSafeInteger(value)) return null;
  return value >= 946_684_800_000 && value < 4_102_444_800_000 ? new Date(value) : null;
}

/** The API address with a path appended (the base may carry a path prefix). */
export function apiUrl(base: string, path: string): URL {
  return new URL(`${base.replace(/\/+$/, "")}${path}`);
}
