import type { QuantitySampleRecord } from "@svc/core";
import type { TestService } from "./test-service.ts";
import { at, writeDaily, writeEcg, writeNutrition, writeSamples, writeSleep, writeWorkoutRecords } from "./records.ts";

/** A Withings sample of `type` at `time` (ISO), as the FHIR tests write them. */
export const withingsSample = (type: string, value: number, time: string, extra: Partial<QuantitySampleRecord> = {}): QuantitySampleRecord => ({
  type,
  value,
  start_date: at(time),
  source: "withings",
  device: "BPM Connect",
  ...extra,
});

/** Writes one record of each kind the FHIR base serves as an Observation, on 2026-03-01. */
export async function writeEveryObservationKind(svc: TestService, userId: string): Promise<void> {
  await writeSamples(svc, userId, "withings", [
    withingsSample("heart_rate", 61, "2026-03-01T07:00:00Z", { device: "ScanWatch", on_body: true }),
    withingsSample("blood_pressure_systolic", 121, "2026-03-01T07:05:00Z"),
    withingsSample("blood_pressure_diastolic", 79, "2026-03-01T07:05:00Z"),
    withingsSample("body_mass", 72.4, "2026-03-01T07:10:00Z"),
    withingsSample("step_count", 420, "2026-03-01T09:00:00Z", { end_date: at("2026-03-01T09:10:00Z") }),
  ]);
  await writeSleep(svc, userId, "oura", [
    { bedtime_start: at("2026-02-28T22:00:00Z"), bedtime_end: at("2026-03-01T06:00:00Z"), total_sleep_seconds: 25_200, source: "oura", device: "Oura Ring 4", on_body: true },
  ]);
  await writeWorkoutRecords(svc, userId, "garmin", [
    { activity_type: "running", start_date: at("2026-03-01T07:00:00Z"), end_date: at("2026-03-01T07:45:00Z"), distance_meters: 8000, source: "garmin" },
  ]);
  await writeDaily(svc, userId, "garmin", [{ date: "2026-03-01", steps: 11_000, resting_heart_rate: 52, source: "garmin" }]);
  await writeEcg(svc, userId, "apple_health", [
    { start_date: at("2026-03-01T12:00:00Z"), classification: "sinusRhythm", sampling_frequency_hz: 512, voltages: [12.5, -3, 40.25, 7], source: "apple", device: "Apple Watch" },
  ]);
  await writeNutrition(svc, userId, "cronometer", [{ start_date: at("2026-03-01T12:30:00Z"), meal_type: "lunch", name: "Pasta", energy_kcal: 640, source: "cronometer" }]);
}
