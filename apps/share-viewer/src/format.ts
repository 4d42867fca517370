/** How the page writes numbers, dates and durations (the reader's locale). */

export const formatNumber = (value: number, digits = 1): string =>
  value.toLocaleString(undefined, { maximumFractionDigits: Math.abs(value) >= 100 ? 0 : digits });

export const formatDate = (ms: number): string => new Date(ms).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });

export const formatDateTime = (ms: number): string =>
  new Date(ms).toLocaleString(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" });

export const formatShortDate = (ms: number): string => new Date(ms).toLocaleDateString(undefined, { month: "short", day: "numeric" });

/** "7 h 5 min", "45 min". */
export function formatMinutes(minutes: number): string {
  const rounded = Math.round(minutes);
  const hours = Math.floor(rounded / 60);
  const rest = rounded % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

/** A date range: one date when both ends fall on the same day. */
export function formatRange(range: { start: number; end: number }): string {
  const [start, end] = [formatDate(range.start), formatDate(range.end)];
  return start === end ? start : `${start} – ${end}`;
}

/** A UCUM unit as people write it. */
export function unitLabel(unit: string | undefined): string {
  if (!unit) return "";
  const known: Record<string, string> = { "/min": "per min", "{steps}": "steps", "{score}": "", "{flights}": "floors", "mm[Hg]": "mmHg", "[degF]": "°F", Cel: "°C" };
  return known[unit] ?? unit.replace(/^\{(.*)\}$/, "$1");
}

/** The date part of a download's file name: YYYY-MM-DD (local). */
export function fileDate(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
