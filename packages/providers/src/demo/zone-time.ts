// Wall-clock times of a demo person's IANA zone, with Intl (no zone database of our own).

const offsetFormats = new Map<string, Intl.DateTimeFormat>();
const dateFormats = new Map<string, Intl.DateTimeFormat>();

/** Minutes the zone is ahead of UTC at this instant (60 for Europe/Berlin in winter). */
export function offsetMinutes(instant: Date, zone: string): number {
  let format = offsetFormats.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", { timeZone: zone, timeZoneName: "longOffset" });
    offsetFormats.set(zone, format);
  }
  const name = format.formatToParts(instant).find((part) => part.type === "timeZoneName")?.value ?? "GMT";
  const match = /^GMT([+-])(\d{2}):(\d{2})$/.exec(name);
  if (!match) return 0;
  return (Number(match[2]) * 60 + Number(match[3])) * (match[1] === "-" ? -1 : 1);
}

/** The instant of a wall-clock time: `minutes` after midnight of the local `day` (YYYY-MM-DD). */
export function zonedInstant(day: string, minutes: number, zone: string): Date {
  const wall = Date.parse(`${day}T00:00:00Z`) + Math.round(minutes * 60_000);
  // Twice: the offset at the guess can differ from the offset at the answer around a DST change.
  const guess = wall - offsetMinutes(new Date(wall), zone) * 60_000;
  return new Date(wall - offsetMinutes(new Date(guess), zone) * 60_000);
}

/** The local date (YYYY-MM-DD) of an instant in the zone. */
export function localDay(instant: Date, zone: string): string {
  let format = dateFormats.get(zone);
  if (!format) {
    // en-CA formats dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" });
    dateFormats.set(zone, format);
  }
  return format.format(instant);
}

/** RFC 3339 with the zone's offset at that instant, to the second: `2025-03-10T07:05:00+01:00`. */
export function isoWithOffset(instant: Date, zone: string): string {
  const offset = offsetMinutes(instant, zone);
  const wall = new Date(instant.getTime() + offset * 60_000).toISOString().slice(0, 19);
  const sign = offset < 0 ? "-" : "+";
  const hours = String(Math.floor(Math.abs(offset) / 60)).padStart(2, "0");
  const mins = String(Math.abs(offset) % 60).padStart(2, "0");
  return `${wall}${sign}${hours}:${mins}`;
}

export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** The local days of the zone that overlap the half-open window [start, end). */
export function daysOverlapping(start: Date, end: Date, zone: string): string[] {
  if (end <= start) return [];
  const days: string[] = [];
  const last = localDay(new Date(end.getTime() - 1), zone);
  for (let day = localDay(start, zone); day <= last; day = addDays(day, 1)) days.push(day);
  return days;
}
