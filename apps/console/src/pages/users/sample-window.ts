const DAY_MS = 86_400_000;

/** A time window of the user page's charts: start inclusive, end exclusive (ISO times). */
export interface SampleWindow {
  start: string;
  end: string;
}

export type View = "all" | "merged";
export type Interval = "hour" | "day";

/** The zone statistics are computed in: the browser's. */
export const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";

/** The last 7 days before the type's last sample (end just after it, exclusive). */
export function defaultWindow(lastStart: string): SampleWindow {
  const end = Date.parse(lastStart) + 60_000;
  return { start: new Date(end - 7 * DAY_MS).toISOString(), end: new Date(end).toISOString() };
}

/** Statistics per hour for windows up to 14 days (336 points a series), per day for longer ones. */
export function intervalFor(window: SampleWindow): Interval {
  return Date.parse(window.end) - Date.parse(window.start) > 14 * DAY_MS ? "day" : "hour";
}

/** The window's length for a title: "7 days", "36 hours", "45 minutes". */
export function describeSpan(window: SampleWindow): string {
  const ms = Date.parse(window.end) - Date.parse(window.start);
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (ms >= 2 * DAY_MS) return plural(Math.round(ms / DAY_MS), "day");
  if (ms >= 2 * 3_600_000) return plural(Math.round(ms / 3_600_000), "hour");
  return plural(Math.max(1, Math.round(ms / 60_000)), "minute");
}
