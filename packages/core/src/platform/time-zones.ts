const known = new Map<string, boolean>();

/** Whether a string names a time zone PostgreSQL and Intl both accept: an IANA zone or a ±hh:mm offset. */
export function isTimeZone(value: string): boolean {
  let valid = known.get(value);
  if (valid === undefined) {
    valid = /^[+-]\d{2}:\d{2}$/.test(value) || isIanaZone(value);
    if (known.size < 10_000) known.set(value, valid);
  }
  return valid;
}

function isIanaZone(value: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

const dateFormats = new Map<string, Intl.DateTimeFormat>();
/** Local dates by zone and quarter hour (see localDate). */
const slotDates = new Map<string, string>();
const SLOT_MS = 15 * 60_000;
const MAX_SLOT_DATES = 100_000;

/** The local date (YYYY-MM-DD) of an instant in an IANA zone or a ±hh:mm offset; UTC when the zone is missing or invalid. */
export function localDate(instant: Date, timeZone: string | null | undefined): string {
  if (!timeZone || !isTimeZone(timeZone)) return instant.toISOString().slice(0, 10);
  // Formatting is slow (microseconds) and samples come by the million: a quarter hour of UTC
  // whose first and last millisecond fall on one local date is formatted once. Offsets are
  // multiples of 15 minutes but for old local mean times, so nearly every quarter hour does.
  const slot = Math.floor(instant.getTime() / SLOT_MS);
  const key = `${timeZone}|${slot}`;
  const known = slotDates.get(key);
  if (known !== undefined) return known;
  const date = formatDate(instant, timeZone);
  if (formatDate(new Date(slot * SLOT_MS), timeZone) === date && formatDate(new Date((slot + 1) * SLOT_MS - 1), timeZone) === date) {
    if (slotDates.size >= MAX_SLOT_DATES) slotDates.clear();
    slotDates.set(key, date);
  }
  return date;
}

function formatDate(instant: Date, timeZone: string): string {
  const offset = /^([+-])(\d{2}):(\d{2})$/.exec(timeZone);
  if (!offset) return dateFormat(timeZone).format(instant);
  const minutes = (Number(offset[2]) * 60 + Number(offset[3])) * (offset[1] === "-" ? -1 : 1);
  return new Date(instant.getTime() + minutes * 60_000).toISOString().slice(0, 10);
}

function dateFormat(timeZone: string): Intl.DateTimeFormat {
  let format = dateFormats.get(timeZone);
  if (!format) {
    // en-CA formats dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    if (dateFormats.size < 1000) dateFormats.set(timeZone, format);
  }
  return format;
}
