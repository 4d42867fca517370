// What both Pulse Oximeter (PLX Service 1.0) measurements share: the Measurement Status (16
// bits, 0-4 reserved) and Device and Sensor Status (24 bits, 16-23 reserved) fields, and
// how a reading becomes records.

import type { QuantitySampleRecord } from "@svc/core";
import { positive, sampleMaker, type LineContext, type LineRecords, type MeasurementTime } from "./measurement.ts";

export const PLX_MEASUREMENT_STATUS_BITS: readonly (string | null)[] = [
  null,
  null,
  null,
  null,
  null,
  "measurement_ongoing",
  "early_estimated_data",
  "validated_data",
  "fully_qualified_data",
  "data_from_measurement_storage",
  "data_for_demonstration",
  "data_for_testing",
  "calibration_ongoing",
  "measurement_unavailable",
  "questionable_measurement_detected",
  "invalid_measurement_detected",
];

export const PLX_DEVICE_AND_SENSOR_STATUS_BITS: readonly string[] = [
  "extended_display_update_ongoing",
  "equipment_malfunction_detected",
  "signal_processing_irregularity_detected",
  "inadequate_signal_detected",
  "poor_signal_detected",
  "low_perfusion_detected",
  "erratic_signal_detected",
  "nonpulsatile_signal_detected",
  "questionable_pulse_detected",
  "signal_analysis_ongoing",
  "sensor_interference_detected",
  "sensor_unconnected_to_user",
  "unknown_sensor_connected",
  "sensor_displaced",
  "sensor_malfunctioning",
  "sensor_disconnected",
];

// Data the oximeter itself marks as not a measurement of the user: demonstration or test
// data, or a reading it declares unavailable or invalid.
const NOT_A_MEASUREMENT = new Set(["data_for_demonstration", "data_for_testing", "measurement_unavailable", "invalid_measurement_detected"]);

/** Why a PLX measurement with these status names is refused, or null to keep it. */
function plxStatusProblem(measurementStatus: readonly string[]): string | null {
  const marks = measurementStatus.filter((name) => NOT_A_MEASUREMENT.has(name));
  return marks.length === 0 ? null : `measurement status marks it as not a measurement of the user (${marks.join(", ")})`;
}

/** The fields both PLX measurements map to records. */
export interface PlxReading {
  spo2: number | null;
  pulseRate: number | null;
  measurementStatus: number | null;
  measurementStatusNames: string[];
  deviceAndSensorStatus: number | null;
  deviceAndSensorStatusNames: string[];
  pulseAmplitudeIndex: number | null;
}

/**
 * Oxygen saturation, pulse rate as heart rate, and the pulse amplitude index as peripheral
 * perfusion index (both the share of pulsatile signal, in %), from a worn finger sensor.
 * The fast and slow averages restate the normal reading and are not stored.
 */
export function plxRecords(m: PlxReading, ctx: LineContext, time: MeasurementTime): LineRecords {
  const problem = plxStatusProblem(m.measurementStatusNames);
  if (problem !== null) return { samples: [], rrIntervals: [], refusal: problem };
  const metadata: Record<string, unknown> = {};
  if (m.measurementStatus !== null) metadata.measurement_status = m.measurementStatusNames;
  if (m.deviceAndSensorStatus !== null) metadata.device_and_sensor_status = m.deviceAndSensorStatusNames;
  const sample = sampleMaker(ctx, time, true, metadata);
  const samples: QuantitySampleRecord[] = [];
  if (positive(m.spo2)) samples.push(sample("oxygen_saturation", m.spo2, "%"));
  if (positive(m.pulseRate)) samples.push(sample("heart_rate", m.pulseRate, "count/min"));
  if (positive(m.pulseAmplitudeIndex)) samples.push(sample("peripheral_perfusion_index", m.pulseAmplitudeIndex, "%"));
  return { samples, rrIntervals: [] };
}
