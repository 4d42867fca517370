const DAY_MS = 86_400_000;
/** "YYYY-MM-DDT" of days asked for (all forgotten past a few thousand). */
const dayPrefixes = new Map<number, string>();

const twoDigits = (n: number) => (n < 10 ? `0${n}` : `${n}`);

/**
 * `t.toISOString()`, about four times faster: the date part is remembered per day, the time of
 * day is written out. Lists of records answer thousands of times a page, of few days.
 */
export function isoTime(t: Date): string {
  return isoTimeOfMs(t.getTime());
}

/** isoTime of a time as milliseconds since the epoch (no Date made). */
export function isoTimeOfMs(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  let prefix = dayPrefixes.get(day);
  if (prefix === undefined) {
    if (!Number.isFinite(ms)) return new Date(ms).toISOString(); // throws as it does
    const iso = new Date(day * DAY_MS).toISOString();
    prefix = iso.slice(0, iso.indexOf("T") + 1);
    if (dayPrefixes.size >= 4096) dayPrefixes.clear();
    dayPrefixes.set(day, prefix);
  }
  let rest = ms - day * DAY_MS;
  const hours = Math.floor(rest / 3_600_000);
  rest -= hours * 3_600_000;
  const minutes = Math.floor(rest / 60_000);
  rest -= minutes * 60_000;
  const seconds = Math.floor(rest / 1000);
  const millis = rest - seconds * 1000;
  return `${prefix}${twoDigits(hours)}:${twoDigits(minutes)}:${twoDigits(seconds)}.${millis < 10 ? "00" : millis < 100 ? "0" : ""}${millis}Z`;
}
