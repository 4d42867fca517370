// Health Kit sample details (`sampleSet:polymerize` without grouping) as quantity samples:
// heart rate and resting heart rate (`bpm`), HRV (`heartRateVariabilityRMSSD`, ms), SpO2
// (`saturation`, %), blood pressure (`systolic_pressure`, `diastolic_pressure`, mmHg), weight
// (`body_weight`, kg) and body temperature (`temperature`, °C). A point's times are
// nanoseconds; an instantaneous reading has start = end. Health Kit names no zone of a
// reading, so none is stored.

import type { QuantitySampleRecord } from "@svc/core";
import { emptyParsedRecords, MalformedUpload, type ParsedRecords } from "../parsed-records.ts";
import { fieldsOf, instantOfNanos, isObject, samplePointsOf, type JsonObject } from "./json.ts";

export const HUAWEI_READINGS_FORMAT = "huawei-health-readings";

/** The detail data types read, with the catalog type of each field that is stored. */
export const READING_FIELDS: Readonly<Record<string, ReadonlyArray<{ field: string; type: string; unit: string }>>> = {
  "com.huawei.instantaneous.heart_rate": [{ field: "bpm", type: "heart_rate", unit: "count/min" }],
  "com.huawei.instantaneous.resting_heart_rate": [{ field: "bpm", type: "resting_heart_rate", unit: "count/min" }],
  "com.huawei.heart_rate_variability": [{ field: "heartRateVariabilityRMSSD", type: "hrv_rmssd", unit: "ms" }],
  "com.huawei.instantaneous.spo2": [{ field: "saturation", type: "oxygen_saturation", unit: "%" }],
  "com.huawei.instantaneous.blood_pressure": [
    { field: "systolic_pressure", type: "blood_pressure_systolic", unit: "mmHg" },
    { field: "diastolic_pressure", type: "blood_pressure_diastolic", unit: "mmHg" },
  ],
  "com.huawei.instantaneous.body_weight": [{ field: "body_weight", type: "body_mass", unit: "kg" }],
  "com.huawei.instantaneous.body.temperature": [{ field: "temperature", type: "body_temperature", unit: "degC" }],
};

export function parseHuaweiReadings(payload: unknown): ParsedRecords {
  if (!isObject(payload) || !Array.isArray(payload.group)) throw new MalformedUpload("readings", "a Huawei Health readings payload is an answer of sampleSet:polymerize");
  const out = emptyParsedRecords();
  samplePointsOf(payload).forEach((point, index) => {
    const fields = typeof point.dataTypeName === "string" ? READING_FIELDS[point.dataTypeName] : undefined;
    if (!fields) return;
    const start = instantOfNanos(point.startTime);
    const end = instantOfNanos(point.endTime) ?? start;
    if (!start || !end || end < start) {
      out.rejected.push({ recordKind: "quantity_sample", locator: `samplePoints[${index}]`, reason: "huawei sample point: the start or end time is not nanoseconds since the epoch" });
      return;
    }
    const values = fieldsOf(point);
    for (const { field, type, unit } of fields) {
      const value = values.get(field);
      if (value === undefined) continue;
      out.quantitySamples.push(sample(point, { type, unit, value, start, end }));
    }
  });
  return out;
}

function sample(point: JsonObject, figure: { type: string; unit: string; value: number; start: Date; end: Date }): QuantitySampleRecord {
  return {
    type: figure.type,
    value: figure.value,
    unit: figure.unit,
    start_date: figure.start,
    end_date: figure.end,
    source: "huawei",
    on_body: figure.type !== "body_mass",
    metadata: typeof point.originalDataCollectorId === "string" ? { data_collector: point.originalDataCollectorId.slice(0, 200) } : {},
  };
}
