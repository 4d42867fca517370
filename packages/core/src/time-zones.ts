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
