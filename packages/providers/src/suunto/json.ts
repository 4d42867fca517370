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

/** A time of Suunto's 24/7 data, `2026-05-17T02:13:00.000+02:00`: the instant and its UTC offset (`+02:00`). */
export interface ZonedTime {
  instant: Date;
  offset: string;
}

const ZONED = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)(Z|[+-]\d{2}:?\d{2})$/;

/** A local time with its zone (Z or ±hh:mm); null without a zone (the instant would be a guess) or when not a time. */
export function zonedTimeOf(value: unknown): ZonedTime | null {
  if (typeof value !== "string" || value.length > 40) return null;
  const match = ZONED.exec(value);
  if (!match) return null;
  const zone = match[2]!;
  const offset = zone === "Z" ? "+00:00" : zone.includes(":") ? zone : `${zone.slice(0, 3)}:${zone.slice(3)}`;
  const hours = Number(offset.slice(1, 3));
  const minutes = Number(offset.slice(4, 6));
  if (hours > 14 || minutes > 59) return null;
  // Date.parse rolls 02-30 over to March: the local date must read back as written.
  const local = Date.parse(`${match[1]}Z`);
  if (Number.isNaN(local) || new Date(local).toISOString().slice(0, 10) !== match[1]!.slice(0, 10)) return null;
  const ms = Date.parse(`${match[1]}${offset}`);
  return Number.isNaN(ms) || ms < 946_684_800_000 || ms >= 4_102_444_800_000 ? null : { instant: new Date(ms), offset };
}
