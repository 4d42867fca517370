// Local times and days in a user's IANA zone, for providers that write wall-clock times or
// dates without an offset (Fitbit: "aligned with the user's specified UTC offset"; Google Health daily types).

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(zone: string): Intl.DateTimeFormat {
  let format = formats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    if (formats.size < 1000) formats.set(zone, format);
  }
  return format;
}

/** Whether Intl knows the IANA zone. */
export function isKnownZone(zone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(zone)) return false;
  try {
    formatOf(zone);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock of an instant in a zone, read as if it were UTC, in milliseconds (whole seconds). */
function wallMsAt(instantMs: number, zone: string): number {
  const parts: Record<string, number> = {};
  for (const part of formatOf(zone).formatToParts(new Date(instantMs))) if (part.type !== "literal") parts[part.type] = Number(part.value);
  return Date.UTC(parts.year ?? 1970, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
}

/** How far the zone's clock is ahead of UTC at an instant, in milliseconds. */
function offsetAt(instantMs: number, zone: string): number {
  const whole = Math.floor(instantMs / 1000) * 1000;
  return wallMsAt(whole, zone) - whole;
}

/** The instant a wall-clock time (read as UTC milliseconds) names in a zone. */
export function instantOfWall(wallMs: number, zone: string): Date {
  const guess = wallMs - offsetAt(wallMs, zone);
  return new Date(wallMs - offsetAt(guess, zone));
}

const WALL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;

/** `2024-03-09T23:41:30.000` in a zone; null when the text is not such a time. */
export function localDateTime(text: unknown, zone: string): Date | null {
  if (typeof text !== "string") return null;
  const m = WALL.exec(text);
  if (!m) return null;
  const [, y, mo, d, h, mi, s, ms] = m;
  const wallMs = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? "0"), Number((ms ?? "0").padEnd(3, "0")));
  const check = new Date(wallMs);
  if (check.getUTCMonth() !== Number(mo) - 1 || check.getUTCDate() !== Number(d) || Number(h) > 23 || Number(mi) > 59 || Number(s ?? "0") > 59) return null;
  return instantOfWall(wallMs, zone);
}

/** The local day [midnight, next midnight) of a YYYY-MM-DD date in a zone. */
export function localDay(date: string, zone: string): { start: Date; end: Date } {
  const midnight = Date.parse(`${date}T00:00:00Z`);
  return { start: instantOfWall(midnight, zone), end: instantOfWall(midnight + 86_400_000, zone) };
}

/** The local date (YYYY-MM-DD) of an instant in a zone. */
export function localDateOf(instant: Date, zone: string): string {
  return new Date(instant.getTime() + offsetAt(instant.getTime(), zone)).toISOString().slice(0, 10);
}

/** A YYYY-MM-DD date moved by whole days. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
