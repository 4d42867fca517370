// Reading Health Kit's JSON: sample point and health record times are nanoseconds since the
// epoch (a number or its digits); request times, activity record times and the time fields of
// a sleep record (`fall_asleep_time`...) milliseconds; a field value is `{fieldName,
// integerValue | floatValue | longValue}`.

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const NANOS_PER_MS = 1_000_000n;
/** 2000-01-01 and 2100-01-01: Health Kit's own bounds of a sample time. */
const EARLIEST_MS = 946_684_800_000;
const LATEST_MS = 4_102_444_800_000;

/** An instant from nanoseconds since the epoch (19 digits, as Health Kit writes them); null otherwise. */
export function instantOfNanos(value: unknown): Date | null {
  let nanos: bigint;
  if (typeof value === "number" && Number.isSafeInteger(value)) nanos = BigInt(value);
  else if (typeof value === "number" && Number.isFinite(value) && value > 0) nanos = BigInt(Math.round(value / 1_000_000)) * NANOS_PER_MS;
  else if (typeof value === "string" && /^\d{1,20}$/.test(value)) nanos = BigInt(value);
  else return null;
  const ms = Number(nanos / NANOS_PER_MS);
  return ms >= EARLIEST_MS && ms < LATEST_MS ? new Date(ms) : null;
}

/** An instant from milliseconds since the epoch (a number or its digits); null otherwise. */
export function instantOfMillis(value: unknown): Date | null {
  const ms = typeof value === "number" ? value : typeof value === "string" && /^\d{1,16}$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isFinite(ms)) return null;
  return ms >= EARLIEST_MS && ms < LATEST_MS ? new Date(Math.round(ms)) : null;
}

/** The figures of a sample point's `value` list, by field name (finite numbers only). */
export function fieldsOf(point: JsonObject): Map<string, number> {
  const fields = new Map<string, number>();
  if (!Array.isArray(point.value)) return fields;
  for (const entry of point.value) {
    if (!isObject(entry) || typeof entry.fieldName !== "string") continue;
    const figure = [entry.floatValue, entry.integerValue, entry.longValue].find((v) => typeof v === "number" && Number.isFinite(v));
    if (typeof figure === "number") fields.set(entry.fieldName, figure);
  }
  return fields;
}

/** Every sample point of an answer of `sampleSet:polymerize`: `group[].sampleSet[].samplePoints[]`. */
export function samplePointsOf(answer: JsonObject): JsonObject[] {
  const points: JsonObject[] = [];
  const groups = Array.isArray(answer.group) ? answer.group : [];
  for (const group of groups) {
    const sets = isObject(group) && Array.isArray(group.sampleSet) ? group.sampleSet : [];
    for (const set of sets) {
      const samples = isObject(set) && Array.isArray(set.samplePoints) ? set.samplePoints : [];
      for (const point of samples) if (isObject(point)) points.push(point);
    }
  }
  return points;
}

/** The API address with a path appended (the base may carry a path prefix). */
export function apiUrl(base: string, path: string): URL {
  return new URL(`${base.replace(/\/+$/, "")}${path}`);
}
