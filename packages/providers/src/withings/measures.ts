import type { QuantitySampleRecord } from "@svc/core";
import { emptyParsedRecords, MalformedUpload, type ParsedRecords } from "../parsed-records.ts";
import { isWornModel, modelName } from "./devices.ts";
import { MEASURE_TYPES, UNMAPPED_MEASURE_TYPES } from "./measure-types.ts";
import { epochSeconds, idOf, isObject, text, type JsonObject } from "./values.ts";

export const WITHINGS_MEASURES_FORMAT = "withings-measures";

/** `category` of a real measure (2 is a goal the user set). */
const REAL_MEASURE = 1;
/** `attrib` of a group a shared device could not attribute: it may be another person's. */
const AMBIGUOUS = 1;
/** `attrib` of groups the user typed in. */
const USER_ENTERED: ReadonlySet<number> = new Set([2, 4]);

/**
 * One page of Measure - Getmeas (its `body`: `measuregrps`, `timezone`) to quantity
 * samples: one per measure, at the group's `date`, valued `value * 10^unit` and converted
 * to the catalog's unit. The group id is the external id (each type of a group is its own
 * sample, so a re-pull updates). Goals and ambiguous groups are left out.
 */
export function parseWithingsMeasures(payload: unknown): ParsedRecords {
  if (!isObject(payload) || !Array.isArray(payload.measuregrps)) {
    throw new MalformedUpload("measuregrps", "a Withings measures payload is the body of Measure - Getmeas, with a measuregrps list");
  }
  const records = emptyParsedRecords();
  const timezone = text(payload.timezone, 64);
  payload.measuregrps.forEach((group, index) => {
    const locator = `measuregrps[${index}]`;
    if (!isObject(group)) {
      records.rejected.push({ recordKind: "quantity_sample", locator, reason: "withings measure group: not an object" });
      return;
    }
    if (group.category !== undefined && group.category !== REAL_MEASURE) return;
    if (group.attrib === AMBIGUOUS) return;
    readGroup(group, locator, timezone, records);
  });
  return records;
}

function readGroup(group: JsonObject, locator: string, timezone: string | null, records: ParsedRecords): void {
  const groupId = idOf(group.grpid);
  const takenAt = epochSeconds(group.date);
  if (groupId === null || takenAt === null || !Array.isArray(group.measures)) {
    records.rejected.push({ recordKind: "quantity_sample", locator, reason: "withings measure group: grpid, date or measures is missing or invalid" });
    return;
  }
  const device = modelName(group.modelid, group.model);
  const attrib = typeof group.attrib === "number" ? group.attrib : null;
  group.measures.forEach((measure, index) => {
    const measureLocator = `${locator}.measures[${index}]`;
    const sample = readMeasure(measure);
    if ("reason" in sample) {
      if (sample.reason) records.rejected.push({ recordKind: "quantity_sample", locator: measureLocator, reason: sample.reason });
      return;
    }
    records.quantitySamples.push({
      type: sample.type,
      value: sample.value,
      unit: sample.unit,
      start_date: takenAt,
      source: "withings",
      source_name: "Withings",
      device,
      device_model: device,
      on_body: isWornModel(group.modelid),
      external_id: groupId,
      was_user_entered: attrib !== null && USER_ENTERED.has(attrib),
      timezone,
      metadata: { withings_meastype: (measure as JsonObject).type, ...(attrib !== null ? { attrib } : {}) },
      locator: measureLocator,
    } satisfies QuantitySampleRecord);
  });
}

/** A measure's type, value and unit; a reason when it cannot be read, an empty reason for types svc leaves out. */
function readMeasure(measure: unknown): { type: string; value: number; unit: string } | { reason: string } {
  if (!isObject(measure) || typeof measure.type !== "number" || !Number.isInteger(measure.type)) {
    return { reason: "withings measure: type is missing" };
  }
  const mapping = MEASURE_TYPES[measure.type];
  if (!mapping) {
    return { reason: UNMAPPED_MEASURE_TYPES.has(measure.type) ? "" : `withings measure: type ${measure.type} is not known` };
  }
  const { value, unit } = measure;
  if (typeof value !== "number" || !Number.isFinite(value) || typeof unit !== "number" || !Number.isInteger(unit) || Math.abs(unit) > 12) {
    return { reason: `withings measure ${mapping.type}: value or unit is not a number` };
  }
  // One power of ten, and a division for negative ones, keeps 70 * 10^-3 at 0.07 and 178 cm at 178.
  const exponent = unit + (mapping.exponent ?? 0);
  return { type: mapping.type, value: exponent < 0 ? value / 10 ** -exponent : value * 10 ** exponent, unit: mapping.unit };
}
