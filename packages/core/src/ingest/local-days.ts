import type { ParsedRecords } from "../records/index.ts";
import { localDate } from "../platform/index.ts";
import { isStorableTime } from "./storable-values.ts";

/**
 * The first and last local day of a bundle's records (each record's start in its own zone,
 * UTC when it has none): data.written's first_day and last_day.
 */
export function localDayRange(parsed: ParsedRecords, range: { first?: string; last?: string }): void {
  const add = (day: string) => {
    if (range.first === undefined || day < range.first) range.first = day;
    if (range.last === undefined || day > range.last) range.last = day;
  };
  const timed = [
    ...parsed.quantitySamples,
    ...parsed.categorySamples,
    ...parsed.workouts,
    ...parsed.nutritionLogs,
    ...parsed.heartbeatSeries,
    ...parsed.ecgRecordings,
  ];
  // Only times the writers can store (a far-off one is refused as a record, and has no day here).
  for (const record of timed) if (isStorableTime(record.start_date)) add(localDate(record.start_date, record.timezone));
  for (const session of parsed.sleepSessions) {
    if (isStorableTime(session.bedtime_start)) add(localDate(session.bedtime_start, session.timezone));
  }
  for (const summary of parsed.dailySummaries) if (typeof summary.date === "string") add(summary.date);
}
