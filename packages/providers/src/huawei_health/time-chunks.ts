export const DAY_MS = 86_400_000;

/** Consecutive spans of at most `days` days covering [start, end) in milliseconds. */
export function chunks(window: { start: number; end: number }, days: number): Array<{ start: number; end: number }> {
  const spans: Array<{ start: number; end: number }> = [];
  for (let start = window.start; start < window.end; start += days * DAY_MS) {
    spans.push({ start, end: Math.min(start + days * DAY_MS, window.end) });
  }
  return spans;
}
