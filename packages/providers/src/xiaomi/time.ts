// Local times of an export to instants: an IANA zone (through Intl) or a fixed ±hh:mm offset.

export interface LocalTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const DATE = /^(\d{4})-(\d{1,2})-(\d{1,2})$/;
const CLOCK = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/;
// `2023-02-18 02:13:00+0000`, `2023-02-18T02:13:00Z`, `2023-02-18 02:13:00 +08:00`, `2023-02-18 02:13`.
const DATE_TIME = /^(\d{4}-\d{1,2}-\d{1,2})[T ](\d{1,2}:\d{2}(?::\d{2})?)(?:\.\d{1,9})?\s*(Z|[+-]\d{2}:?\d{2})?$/;

function validDate(year: number, month: number, day: number): boolean {
  if (year < 1900 || year > 2200 || month < 1 || month > 12 || day < 1) return false;
  const d = new Date(Date.UTC(year, month - 1, day));
  return d.getUTCMonth() === month - 1 && d.getUTCDate() === day;
}

/** `YYYY-MM-DD` (a calendar date), normalized to two-digit month and day. */
export function parseDate(value: string): { year: number; month: number; day: number; iso: string } | null {
  const m = DATE.exec(value.trim());
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (!validDate(year, month, day)) return null;
  return { year, month, day, iso: `${m[1]}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}` };
}

export function parseClock(value: string): { hour: number; minute: number; second: number } | null {
  const m = CLOCK.exec(value.trim());
  if (!m) return null;
  const [hour, minute, second] = [Number(m[1]), Number(m[2]), Number(m[3] ?? "0")];
  if (hour > 23 || minute > 59 || second > 59) return null;
  return { hour, minute, second };
}

/** A date and time with its offset in minutes when the text has one. */
export function parseDateTime(value: string): { local: LocalTime; offsetMinutes: number | null } | null {
  const m = DATE_TIME.exec(value.trim());
  if (!m) return null;
  const date = parseDate(m[1] ?? "");
  const clock = parseClock(m[2] ?? "");
  if (!date || !clock) return null;
  let offsetMinutes: number | null = null;
  const zone = m[3];
  if (zone !== undefined) {
    offsetMinutes = parseOffset(zone);
    if (offsetMinutes === null) return null;
  }
  return { local: { year: date.year, month: date.month, day: date.day, ...clock }, offsetMinutes };
}

/** `Z`, `±hh:mm` or `±hhmm` in minutes east of UTC. */
export function parseOffset(value: string): number | null {
  if (value === "Z") return 0;
  const m = /^([+-])(\d{2}):?(\d{2})$/.exec(value);
  if (!m) return null;
  const [hours, minutes] = [Number(m[2]), Number(m[3])];
  if (hours > 18 || minutes > 59) return null;
  return (m[1] === "-" ? -1 : 1) * (hours * 60 + minutes);
}

export function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(zone: string): Intl.DateTimeFormat | null {
  let f = formatters.get(zone);
  if (f) return f;
  try {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
  } catch {
    return null;
  }
  if (formatters.size < 1000) formatters.set(zone, f);
  return f;
}

/** Whether svc can use a zone: `±hh:mm`, or an IANA name Intl knows. */
export function isZone(value: string): boolean {
  if (/^[+-]\d{2}:\d{2}$/.test(value)) return parseOffset(value) !== null;
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(value)) return false;
  return formatterOf(value) !== null;
}

/** The zone's offset from UTC at an instant, in minutes. */
function offsetAt(zone: string, utcMs: number): number {
  const fixed = parseOffset(zone);
  if (fixed !== null) return fixed;
  const f = formatterOf(zone);
  if (!f) return 0;
  const parts: Record<string, number> = {};
  for (const p of f.formatToParts(new Date(utcMs))) if (p.type !== "literal") parts[p.type] = Number(p.value);
  const local = Date.UTC(parts.year ?? 1970, (parts.month ?? 1) - 1, parts.day ?? 1, parts.hour ?? 0, parts.minute ?? 0, parts.second ?? 0);
  return Math.round((local - Math.floor(utcMs / 1000) * 1000) / 60_000);
}

const offsetCache = new Map<string, number>();

/**
 * The instant of a local time in a zone, as Temporal's `compatible` disambiguation: a local
 * time that happens twice (clocks set back) is the earlier instant; one that does not happen
 * (clocks set forward) is moved forward by the gap.
 */
export function localToInstant(local: LocalTime, zone: string): Date {
  const wall = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second);
  const key = `${zone}|${local.year}-${local.month}-${local.day}T${local.hour}`;
  let offset = offsetCache.get(key);
  if (offset === undefined) {
    // The offsets a day before and after; a zone changes its offset far less often.
    const before = offsetAt(zone, wall - 86_400_000);
    const after = offsetAt(zone, wall + 86_400_000);
    const valid = [before, after].filter((o) => offsetAt(zone, wall - o * 60_000) === o);
    offset = valid.length === 0 ? before : Math.max(...valid);
    if (offsetCache.size > 100_000) offsetCache.clear();
    offsetCache.set(key, offset);
  }
  return new Date(wall - offset * 60_000);
}

/** An instant from a local time with its own offset, or the upload's zone; null without either. */
export function instantOf(local: LocalTime, offsetMinutes: number | null, zone: string | null): Date | null {
  if (offsetMinutes !== null) {
    const wall = Date.UTC(local.year, local.month - 1, local.day, local.hour, local.minute, local.second);
    return new Date(wall - offsetMinutes * 60_000);
  }
  return zone === null ? null : localToInstant(local, zone);
}

/** Epoch seconds (or milliseconds, 13 digits) as text. */
export function parseEpoch(value: string): Date | null {
  const text = value.trim();
  if (!/^\d{9,13}$/.test(text)) return null;
  const n = Number(text);
  return new Date(text.length >= 12 ? n : n * 1000);
}
