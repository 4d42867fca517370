// GET /v3/users/self/events answers (entries the user made) to samples.
import { emptyParsedRecords, type ParsedRecords, type QuantitySampleRecord } from "@svc/core";
import { provenanceOf } from "./device.ts";
import { isObject, numberOf, textOf, type JsonObject } from "./json.ts";
import { recordTime } from "./times.ts";

/** The event types svc stores: the catalog type and the units Dexcom writes for it. */
const MAPPED_EVENTS: Readonly<Record<string, { type: string; units: Readonly<Record<string, string>> }>> = {
  carbs: { type: "dietary_carbohydrates", units: { grams: "g" } },
  insulin: { type: "insulin_delivery", units: { units: "IU" } },
  bloodGlucose: { type: "blood_glucose", units: { "mg/dL": "mg/dL" } },
};

/**
 * Carbohydrate, insulin and blood glucose (fingerstick) entries become samples the user
 * entered, with the event's recordId as external id. Events Dexcom reports `deleted`
 * become deletions of that id. Exercise, health and note events have no catalog type and
 * are left out.
 */
export function parseEvents(payload: unknown): ParsedRecords {
  if (!isObject(payload) || !Array.isArray(payload.records)) throw new Error("dexcom-events: the answer has no records array");
  const out = emptyParsedRecords();
  const deleted: string[] = [];
  payload.records.forEach((record: unknown, index) => {
    const locator = `records[${index}]`;
    const reject = (reason: string) => out.rejected.push({ recordKind: "event", locator, reason });
    if (!isObject(record)) return reject("event: not an object");
    const recordId = textOf(record.recordId, 100);
    if (record.eventStatus === "deleted") {
      if (recordId) deleted.push(recordId);
      return;
    }
    const mapped = typeof record.eventType === "string" && Object.hasOwn(MAPPED_EVENTS, record.eventType) ? MAPPED_EVENTS[record.eventType] : undefined;
    if (!mapped) return;
    const sample = eventSample(record, mapped.type, mapped.units);
    if (typeof sample === "string") return reject(`event ${String(record.eventType)}: ${sample}`);
    out.quantitySamples.push({ ...sample, external_id: recordId, locator });
  });
  if (deleted.length > 0) out.deletedExternalIds = deleted;
  return out;
}

function eventSample(record: JsonObject, type: string, units: Readonly<Record<string, string>>): QuantitySampleRecord | string {
  const time = recordTime(record.systemTime, record.displayTime);
  if (!time) return "systemTime is missing or not a time";
  const value = numberOf(record.value);
  if (value === null) return "value is missing or not a number";
  const unit = typeof record.unit === "string" && Object.hasOwn(units, record.unit) ? units[record.unit] : undefined;
  if (!unit) return "unit is missing or not the one this event type uses";
  const metadata: Record<string, unknown> = { record_type: "event", event_type: record.eventType };
  const subType = textOf(record.eventSubType, 30);
  if (subType) metadata.event_sub_type = subType;
  const displayTime = textOf(record.displayTime, 40);
  if (displayTime) metadata.display_time = displayTime;
  return {
    ...provenanceOf(record),
    // An entry typed in the app or the receiver, not measured by the sensor.
    on_body: false,
    type,
    value,
    unit,
    start_date: time.instant,
    timezone: time.timezone,
    was_user_entered: true,
    metadata,
  };
}
