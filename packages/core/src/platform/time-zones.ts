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

/** The local date (YYYY-MM-DD) of an instant in an IANA zone or a ±hh:mm offset; UTC when the zone is missing or invalid. */
export function localDate(instant: Date, timeZone: string | null | undefined): string {
  if (!timeZone || !isTimeZone(timeZone)) return instant.toISOString().slice(0, 10);
  const offset = /^([+-])(\d{2}):(\d{2})$/.exec(timeZone);
  if (offset) {
    const minutes = (Number(offset[2]) * 60 + Number(offset[3])) * (offset[1] === "-" ? -1 : 1);
    return new Date(instant.getTime() + minutes * 60_000).toISOString().slice(0, 10);
  }
  let format = dateFormats.get(timeZone);
  if (!format) {
    // en-CA formats dates as YYYY-MM-DD.
    format = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    if (dateFormats.size < 1000) dateFormats.set(timeZone, format);
  }
  return format.format(instant);
}
