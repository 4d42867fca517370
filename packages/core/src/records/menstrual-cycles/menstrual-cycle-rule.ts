import { Temporal } from "temporal-polyfill";
import { localDate } from "../../platform/index.ts";

/**
 * The rule that turns recorded menstrual flow into cycles (the way Apple Health and Clue
 * count them):
 *
 * - A flow day is a local date (the sample's metadata.timezone, else UTC) covered by a
 *   `menstrual_flow` sample whose value is not `none`. Samples of every provider count, as
 *   one set of days, so two apps logging the same period give the same days once.
 * - A period is a run of flow days in which consecutive flow days are at most 2 dates apart:
 *   a single flow-free day inside a period is bridged.
 * - A new cycle starts at the first flow day after at least 2 flow-free days (the next flow
 *   date is more than 2 dates after the previous one).
 * - cycle_length_days is the number of days from a cycle's start to the next cycle's start;
 *   end_date is the day before that. The last cycle has neither (it is still running).
 * - period_length_days counts from the first to the last flow day of the period, inclusive.
 */

export interface DerivedCycle {
  /** YYYY-MM-DD */
  startDate: string;
  periodEndDate: string;
  /** Null for the last (current) cycle. */
  endDate: string | null;
  periodLengthDays: number;
  cycleLengthDays: number | null;
}

/** Largest difference between consecutive flow dates that stays one period. */
const MAX_DATES_APART_IN_PERIOD = 2;

/**
 * The local dates an interval covers: from the date of start to the date of the last
 * instant before end (an instant, or an interval of no length, covers one date).
 */
export function localDatesOf(start: Date, end: Date, timeZone: string | null | undefined): string[] {
  const first = Temporal.PlainDate.from(localDate(start, timeZone));
  const last = Temporal.PlainDate.from(localDate(end > start ? new Date(end.getTime() - 1) : start, timeZone));
  const dates: string[] = [];
  // A flow sample longer than a couple of months is not a period; cap the walk.
  for (let day = first, n = 0; Temporal.PlainDate.compare(day, last) <= 0 && n < 62; day = day.add({ days: 1 }), n++) {
    dates.push(day.toString());
  }
  return dates;
}

const daysBetween = (from: string, to: string) => Temporal.PlainDate.from(from).until(Temporal.PlainDate.from(to), { largestUnit: "days" }).days;

const dayBefore = (date: string) => Temporal.PlainDate.from(date).subtract({ days: 1 }).toString();

/** Cycles, oldest first, from a set of flow dates (YYYY-MM-DD, any order, repeats allowed). */
export function deriveMenstrualCycles(flowDates: Iterable<string>): DerivedCycle[] {
  const days = [...new Set(flowDates)].sort();
  const periods: Array<{ start: string; end: string }> = [];
  for (const day of days) {
    const current = periods.at(-1);
    if (current && daysBetween(current.end, day) <= MAX_DATES_APART_IN_PERIOD) current.end = day;
    else periods.push({ start: day, end: day });
  }
  return periods.map((period, i) => {
    const next = periods[i + 1];
    return {
      startDate: period.start,
      periodEndDate: period.end,
      endDate: next ? dayBefore(next.start) : null,
      periodLengthDays: daysBetween(period.start, period.end) + 1,
      cycleLengthDays: next ? daysBetween(period.start, next.start) : null,
    };
  });
}
