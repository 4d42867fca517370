/**
 * Days and zones. A day is a plain date `YYYY-MM-DD`: a daily summary's date is one as it is
 * (never read as an instant at UTC midnight, which west of UTC is the evening before), and an
 * instant falls on the day its zone's clock shows.
 */

/** When a record happened: a plain date (date-only records) or an instant (ms since the epoch). */
export type When = { kind: "day"; day: string } | { kind: "time"; ms: number };

/** The first and last day of a set of records. */
export interface DayRange {
  first: string;
  last: string;
}

const PLAIN_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether a FHIR date or dateTime is a plain date (`YYYY-MM-DD`, no time). */
export const isPlainDate = (value: string): boolean => PLAIN_DATE.test(value);

/**
 * Days since 1970-01-01 of a plain date: a number to place days on a chart's axis. It stands
 * for the date itself, not an instant (format it with formatDayNumber).
 */
export function dayNumber(day: string): number {
  const match = PLAIN_DATE.exec(day);
  if (!match) return Number.NaN;
  return Math.round(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) / 86_400_000);
}

/** The plain date of a day number. */
export const dayOfNumber = (days: number): string => new Date(days * 86_400_000).toISOString().slice(0, 10);

/** The zone this browser shows times in. */
export const viewerZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

/** Whether Intl knows a zone name. */
export function isKnownZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Every offset in use is a multiple of 15 minutes: instants in one quarter hour share a local date. */
const QUARTER_HOUR_MS = 900_000;

/**
 * The local date of instants in one zone. Formatting is slow next to the thousands of samples
 * of a full share, so each quarter hour's date is kept once found.
 */
export class DayFinder {
  readonly zone: string;
  private readonly format: Intl.DateTimeFormat;
  private readonly known = new Map<number, string>();

  constructor(zone: string) {
    this.zone = zone;
    // en-CA writes dates as YYYY-MM-DD.
    this.format = new Intl.DateTimeFormat("en-CA", { timeZone: zone, year: "numeric", month: "2-digit", day: "2-digit" });
  }

  dayOf(ms: number): string {
    const quarter = Math.floor(ms / QUARTER_HOUR_MS);
    let day = this.known.get(quarter);
    if (day === undefined) {
      day = this.format.format(ms);
      this.known.set(quarter, day);
    }
    return day;
  }

  /** The day of a When: a plain date as it is, an instant on its zone's clock. */
  dayOfWhen(when: When): string {
    return when.kind === "day" ? when.day : this.dayOf(when.ms);
  }
}

/** The range widened by a day. */
export function widenDays(range: DayRange | null, day: string): DayRange {
  if (!range) return { first: day, last: day };
  return { first: day < range.first ? day : range.first, last: day > range.last ? day : range.last };
}

/** The union of two ranges. */
export function joinDays(a: DayRange | null, b: DayRange | null): DayRange | null {
  if (!a) return b;
  if (!b) return a;
  return widenDays(widenDays(a, b.first), b.last);
}
