// Dexcom's two clocks: systemTime (the device's UTC clock) and displayTime (what the
// receiver or phone showed). Records from the mobile apps carry UTC offsets on both;
// records from receivers carry none, and their displayTime is the user's wall clock.

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})?$/;

interface DexcomTime {
  /** The wall-clock time read as if it were UTC, in milliseconds. */
  wallMs: number;
  /** The offset written after the time, in minutes; null when there is none. */
  offsetMinutes: number | null;
}

function readTime(raw: unknown): DexcomTime | null {
  if (typeof raw !== "string") return null;
  const m = TIMESTAMP.exec(raw.trim());
  if (!m) return null;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const wallMs = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), frac ? Number(frac.padEnd(3, "0").slice(0, 3)) : 0);
  const check = new Date(wallMs);
  if (check.getUTCMonth() !== Number(mo) - 1 || check.getUTCDate() !== Number(d) || Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  let offsetMinutes: number | null = null;
  if (zone === "Z") offsetMinutes = 0;
  else if (zone) {
    const z = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
    if (!z || Number(z[2]) > 18 || Number(z[3]) > 59) return null;
    offsetMinutes = (z[1] === "-" ? -1 : 1) * (Number(z[2]) * 60 + Number(z[3]));
  }
  return { wallMs, offsetMinutes };
}

/** `+01:00` for 60, `-08:00` for -480. */
export function offsetText(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? "-" : "+"}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
}

/** Offsets a display clock can plausibly have: whole quarter hours within ±14 h. */
const MAX_OFFSET_MINUTES = 14 * 60;

/**
 * The instant of a record (its systemTime, UTC when written without an offset) and the
 * zone offset it was displayed in: the displayTime's own offset, or for receiver records
 * the difference between the display clock and the system clock, to the quarter hour.
 * Null when systemTime cannot be read.
 */
export function recordTime(systemTime: unknown, displayTime: unknown): { instant: Date; timezone: string | null } | null {
  const system = readTime(systemTime);
  if (!system) return null;
  const instantMs = system.wallMs - (system.offsetMinutes ?? 0) * 60_000;
  const display = readTime(displayTime);
  let timezone: string | null = null;
  if (display?.offsetMinutes !== null && display?.offsetMinutes !== undefined) {
    timezone = offsetText(display.offsetMinutes);
  } else if (display) {
    const minutes = Math.round((display.wallMs - instantMs) / 60_000 / 15) * 15;
    if (Math.abs(minutes) <= MAX_OFFSET_MINUTES) timezone = offsetText(minutes);
  }
  return { instant: new Date(instantMs), timezone };
}

/** A query bound as Dexcom takes it: UTC wall time without an offset, to the second. */
export function queryTime(instant: Date): string {
  return instant.toISOString().slice(0, 19);
}
