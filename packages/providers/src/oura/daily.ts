import { emptyParsedRecords, type ParsedRecords, type QuantitySampleRecord } from "@svc/core";
import { dayOf, documentsOf, isObject, localMidnight, numberOf, offsetOf, OURA_PROVENANCE, reject, textOf, type OuraDocument } from "./documents.ts";

// Oura's daily documents (daily_activity, daily_sleep, daily_readiness, daily_spo2): one per
// local `day`. Their figures become daily figures at the local midnight of that day, in the
// offset of the document's `timestamp` (UTC midnight when the document has none).

interface DailyContext {
  id: string;
  day: string;
  offset: string | null;
  locator: string;
}

/** Reads each document's id and day; a document without them is rejected. */
function eachDaily(payload: unknown, format: string, recordKind: string, read: (document: OuraDocument, context: DailyContext, out: ParsedRecords) => void): ParsedRecords {
  const out = emptyParsedRecords();
  for (const { document, locator } of documentsOf(payload, format)) {
    if (!document) {
      reject(out, recordKind, locator, "the document is not an object");
      continue;
    }
    const id = textOf(document.id);
    const day = dayOf(document.day);
    if (!id) reject(out, recordKind, locator, "id is missing");
    else if (!day) reject(out, recordKind, locator, "day is not a YYYY-MM-DD date");
    else read(document, { id, day, offset: offsetOf(document.timestamp), locator }, out);
  }
  return out;
}

function dailyFigure(context: DailyContext, type: string, value: number, unit: string, metadata: Record<string, unknown>): QuantitySampleRecord {
  const at = localMidnight(context.day, context.offset ?? "+00:00");
  return {
    type,
    value,
    unit,
    start_date: at,
    end_date: at,
    ...OURA_PROVENANCE,
    external_id: context.id,
    timezone: context.offset,
    metadata: { day: context.day, ...metadata },
    locator: context.locator,
  };
}

/**
 * daily_activity: one daily summary per day (Oura's day runs from 4 a.m. to 4 a.m. local).
 * Active time is the low, medium and high activity time together (seconds, as Oura counts
 * "activity time"). `equivalent_walking_distance` is the energy expressed as a walk, not a
 * distance covered, so it stays in the metadata.
 */
export function parseDailyActivity(payload: unknown): ParsedRecords {
  return eachDaily(payload, "oura-daily_activity", "daily_summary", (document, context, out) => {
    const times = [document.low_activity_time, document.medium_activity_time, document.high_activity_time].map(numberOf);
    const activeSeconds = times.every((time) => time === null) ? null : times.reduce<number>((sum, time) => sum + (time ?? 0), 0);
    out.dailySummaries.push({
      date: context.day,
      steps: numberOf(document.steps),
      active_energy_kcal: numberOf(document.active_calories),
      total_energy_kcal: numberOf(document.total_calories),
      active_seconds: activeSeconds,
      score: numberOf(document.score),
      timezone: context.offset,
      source: OURA_PROVENANCE.source,
      device: OURA_PROVENANCE.device,
      on_body: true,
      metadata: {
        oura_id: context.id,
        equivalent_walking_distance_meters: numberOf(document.equivalent_walking_distance),
        sedentary_seconds: numberOf(document.sedentary_time),
        resting_seconds: numberOf(document.resting_time),
        non_wear_seconds: numberOf(document.non_wear_time),
        average_met_minutes: numberOf(document.average_met_minutes),
      },
      locator: context.locator,
    });
  });
}

/** daily_sleep: the night's sleep score (1-100). */
export function parseDailySleep(payload: unknown): ParsedRecords {
  return eachDaily(payload, "oura-daily_sleep", "quantity_sample", (document, context, out) => {
    const score = numberOf(document.score);
    if (score === null) return;
    out.quantitySamples.push(dailyFigure(context, "sleep_score", score, "score", contributorsOf(document)));
  });
}

/** daily_readiness: the readiness score (1-100) and the skin temperature deviation (degrees Celsius). */
export function parseDailyReadiness(payload: unknown): ParsedRecords {
  return eachDaily(payload, "oura-daily_readiness", "quantity_sample", (document, context, out) => {
    const score = numberOf(document.score);
    if (score !== null) out.quantitySamples.push(dailyFigure(context, "readiness_score", score, "score", contributorsOf(document)));
    const deviation = numberOf(document.temperature_deviation);
    if (deviation !== null) {
      const trend = numberOf(document.temperature_trend_deviation);
      out.quantitySamples.push(dailyFigure(context, "skin_temperature_deviation", deviation, "degC", { temperature_trend_deviation: trend }));
    }
  });
}

/**
 * daily_spo2: the night's average SpO2 (%) and the breathing disturbance index (disturbances
 * per hour of sleep, from SpO2 drops).
 */
export function parseDailySpo2(payload: unknown): ParsedRecords {
  return eachDaily(payload, "oura-daily_spo2", "quantity_sample", (document, context, out) => {
    const spo2 = isObject(document.spo2_percentage) ? numberOf(document.spo2_percentage.average) : null;
    if (spo2 !== null) out.quantitySamples.push(dailyFigure(context, "oxygen_saturation", spo2, "%", {}));
    const disturbances = numberOf(document.breathing_disturbance_index);
    if (disturbances !== null) out.quantitySamples.push(dailyFigure(context, "sleeping_breathing_disturbances", disturbances, "count/h", {}));
  });
}

function contributorsOf(document: OuraDocument): Record<string, unknown> {
  return isObject(document.contributors) ? { contributors: document.contributors } : {};
}
