// Local days in the user's IANA zone (from GET /v4/users/me/settings), for the daily
// data types, which name a date and no offset.

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

/** How far the zone's clock is ahead of UTC at an instant (whole seconds), in milliseconds. */
function offsetAt(instantMs: number, zone: string): number {
  const whole = Math.floor(instantMs / 1000) * 1000;
  const parts: Record<string, number> = {};
  for (const part of formatOf(zone).formatToParts(new Date(whole))) if (part.type !== "literal") parts[part.type] = Number(part.value);
  const wall = Date.UTC(parts.year ?? 1970, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
  return wall - whole;
}

function midnightIn(date: string, zone: string): Date {
  const wall = Date.parse(`${date}T00:00:00Z`);
  const guess = wall - offsetAt(wall, zone);
  return new Date(wall - offsetAt(guess, zone));
}

/** The local day [midnight, next midnight) of a YYYY-MM-DD date in a zone. */
export function localDay(date: string, zone: string): { start: Date; end: Date } {
  const next = new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
  return { start: midnightIn(date, zone), end: midnightIn(next, zone) };
}

/** The local date (YYYY-MM-DD) of an instant in a zone. */
export function localDateOf(instant: Date, zone: string): string {
  return new Date(instant.getTime() + offsetAt(instant.getTime(), zone)).toISOString().slice(0, 10);
}
