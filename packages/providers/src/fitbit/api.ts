import { addDays } from "../local-time.ts";

/** `{base}{path}?query`, keeping any path of the base (a proxy prefix). */
export function apiUrl(base: string, path: string, query: Record<string, string> = {}): URL {
  const url = new URL(base.replace(/\/+$/, "") + path);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  return url;
}

/** The inclusive date range [first, last] cut into consecutive ranges of at most `maxDays` days. */
export function dateRanges(first: string, last: string, maxDays: number): Array<{ start: string; end: string }> {
  const ranges: Array<{ start: string; end: string }> = [];
  for (let start = first; start <= last; start = addDays(start, maxDays)) {
    const end = addDays(start, maxDays - 1);
    ranges.push({ start, end: end < last ? end : last });
  }
  return ranges;
}
