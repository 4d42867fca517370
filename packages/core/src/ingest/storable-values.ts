/** A character PostgreSQL's text and jsonb cannot hold, or a UTF-16 surrogate (lone ones cannot be stored either). */
const SUSPECT = /[\u0000\uD800-\uDFFF]/;
const NUL = /\u0000/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Times stored are within the years 0001 to 9999 (PostgreSQL has no year 0, dates and
 * events name days as YYYY-MM-DD), a day inside either end so that no zone moves a local
 * day out of them.
 */
const FIRST_TIME = Date.parse("0001-01-02T00:00:00Z");
const LAST_TIME = Date.parse("9999-12-30T23:59:59.999Z");

/** Whether the value is a valid time within the years stored. */
export function isStorableTime(value: unknown): value is Date {
  if (!(value instanceof Date)) return false;
  const time = value.getTime();
  return time >= FIRST_TIME && time <= LAST_TIME;
}

/** The string as PostgreSQL can store it: NUL characters dropped, lone surrogates replaced by U+FFFD. */
export function storableString(text: string): string {
  return SUSPECT.test(text) ? text.replace(NUL, "").replace(LONE_SURROGATE, "\uFFFD") : text;
}

/**
 * The value with what PostgreSQL cannot store made storable. Records parsed from uploads
 * carry text as sent (device names, metadata) and times as far off as their format can
 * say, and one NUL or one year 0 would fail the whole write. Every string (object keys
 * too) is made storable; a time outside the years stored becomes an invalid date, which
 * the writers refuse as they refuse any invalid time (a rejected record). Only arrays and
 * plain objects are walked; parts with nothing to change are returned, not copied.
 */
export function storableValues<T>(value: T): T {
  return clean(value) as T;
}

// Walked for every record of every upload: plain loops, no allocation when nothing changes.
function clean(value: unknown): unknown {
  if (typeof value === "string") return storableString(value);
  if (typeof value !== "object" || value === null) return value;
  if (value instanceof Date) return Number.isNaN(value.getTime()) || isStorableTime(value) ? value : new Date(Number.NaN);
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      const cleaned = clean(item);
      if (cleaned !== item) (copy ??= [...value])[i] = cleaned;
    }
    return copy ?? value;
  }
  if (isPlainObject(value)) {
    let copy: Record<string, unknown> | undefined;
    for (const key in value) {
      const item = value[key];
      const cleanKey = storableString(key);
      const cleaned = clean(item);
      if (cleanKey === key && cleaned === item) continue;
      copy ??= { ...value };
      if (cleanKey !== key) delete copy[key];
      copy[cleanKey] = cleaned;
    }
    return copy ?? value;
  }
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
