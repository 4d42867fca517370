// The nightly figures Fitbit computes from the main sleep, one per date (the date the
// sleep ended): SpO2, HRV, breathing rate and skin temperature variation.
import { emptyParsedRecords, type ParsedRecords } from "@svc/core";
import { dailySample } from "./daily-figures.ts";
import { dateOf, isObject, numberOf, type JsonObject } from "./json.ts";
import { envelopeOf } from "./payload.ts";

interface Figure {
  type: string;
  value: number;
  unit: string;
  metadata?: Record<string, unknown>;
}

/** Reads a list of `{dateTime, value: {...}}` entries into daily samples. */
function nightly(format: string, payload: unknown, listOf: (response: unknown) => unknown, figureOf: (value: JsonObject) => Figure | null): ParsedRecords {
  const { response, ...zone } = envelopeOf(format, payload);
  const list = listOf(response);
  if (!Array.isArray(list)) throw new Error(`${format}: the answer has no list of days`);
  const out = emptyParsedRecords();
  list.forEach((entry: unknown, index) => {
    const locator = `[${index}]`;
    const date = isObject(entry) ? dateOf(entry.dateTime) : null;
    const figure = isObject(entry) && isObject(entry.value) ? figureOf(entry.value) : null;
    if (date === null || figure === null) {
      out.rejected.push({ recordKind: format.replace("fitbit-", ""), locator, reason: `${format}: dateTime or value unreadable` });
      return;
    }
    out.quantitySamples.push(dailySample(zone, date, figure, locator));
  });
  return out;
}

/** SpO2 by interval (`/1/user/-/spo2/date/{start}/{end}.json`): a list of days with avg, min and max in %. */
export function parseSpo2(payload: unknown): ParsedRecords {
  return nightly("fitbit-spo2", payload, (response) => response, (value) => {
    const avg = numberOf(value.avg);
    if (avg === null) return null;
    return { type: "oxygen_saturation", value: avg, unit: "%", metadata: { statistic: "nightly_average", min: numberOf(value.min), max: numberOf(value.max) } };
  });
}

/** HRV by interval (`/1/user/-/hrv/date/{start}/{end}.json`): the night's RMSSD in ms, and the deep sleep RMSSD. */
export function parseHrv(payload: unknown): ParsedRecords {
  return nightly("fitbit-hrv", payload, (response) => (isObject(response) ? response.hrv : undefined), (value) => {
    const rmssd = numberOf(value.dailyRmssd);
    if (rmssd === null) return null;
    return { type: "hrv_rmssd", value: rmssd, unit: "ms", metadata: { deep_rmssd: numberOf(value.deepRmssd) } };
  });
}

/** Breathing rate by interval (`/1/user/-/br/date/{start}/{end}.json`): breaths per minute over the night. */
export function parseBreathingRate(payload: unknown): ParsedRecords {
  return nightly("fitbit-br", payload, (response) => (isObject(response) ? response.br : undefined), (value) => {
    const rate = numberOf(value.breathingRate);
    return rate === null ? null : { type: "respiratory_rate", value: rate, unit: "count/min" };
  });
}

/** Skin temperature by interval (`/1/user/-/temp/skin/date/{start}/{end}.json`): the night's deviation from the baseline, in °C. */
export function parseSkinTemperature(payload: unknown): ParsedRecords {
  return nightly("fitbit-temp-skin", payload, (response) => (isObject(response) ? response.tempSkin : undefined), (value) => {
    const relative = numberOf(value.nightlyRelative);
    return relative === null ? null : { type: "skin_temperature_deviation", value: relative, unit: "degC" };
  });
}
