import type { Observation } from "fhir/r4.js";
import { formatMinutes, formatNumber, unitLabel } from "../format.ts";
import { componentMinutes, componentText, componentValue, valueOf, type ObservationKind } from "./observation-codes.ts";

const join = (parts: Array<string | null>) => parts.filter((part): part is string => part !== null && part !== "").join(" · ");
const withUnit = (value: number | null, unit: string, digits = 1) => (value === null ? null : `${formatNumber(value, digits)} ${unit}`.trim());

function quantity(observation: Observation): string {
  const value = valueOf(observation);
  if (value === null) return "No value";
  const unit = unitLabel(observation.valueQuantity?.code ?? observation.valueQuantity?.unit);
  return `${formatNumber(value, 2)}${unit ? ` ${unit}` : ""}`;
}

function bloodPressure(observation: Observation): string {
  const [systolic, diastolic] = [componentValue(observation, "blood_pressure_systolic"), componentValue(observation, "blood_pressure_diastolic")];
  return `${systolic === null ? "–" : formatNumber(systolic, 0)}/${diastolic === null ? "–" : formatNumber(diastolic, 0)} mmHg`;
}

function sleep(observation: Observation): string {
  const asleep = valueOf(observation);
  const phase = (name: string, label: string) => {
    const minutes = componentMinutes(observation, name);
    return minutes === null ? null : `${label} ${formatMinutes(minutes)}`;
  };
  const efficiency = componentValue(observation, "efficiency");
  return join([
    asleep === null ? "Time asleep unknown" : `${formatMinutes(asleep)} asleep`,
    phase("deep_seconds", "deep"),
    phase("rem_seconds", "REM"),
    phase("light_seconds", "light"),
    phase("awake_seconds", "awake"),
    efficiency === null ? null : `${formatNumber(efficiency, 0)}% efficiency`,
  ]);
}

function workout(observation: Observation): string {
  const minutes = valueOf(observation);
  const meters = componentValue(observation, "distance_meters");
  return join([
    componentText(observation, "activity_type"),
    minutes === null ? null : formatMinutes(minutes),
    meters === null ? null : meters >= 1000 ? `${formatNumber(meters / 1000, 2)} km` : `${formatNumber(meters, 0)} m`,
    withUnit(componentValue(observation, "active_energy_kcal"), "kcal", 0),
    withUnit(componentValue(observation, "average_heart_rate"), "bpm avg", 0),
  ]);
}

function daily(observation: Observation): string {
  const active = componentMinutes(observation, "active_seconds");
  const sleepMinutes = componentMinutes(observation, "sleep_seconds");
  return join([
    withUnit(componentValue(observation, "steps"), "steps", 0),
    withUnit(componentValue(observation, "distance_meters") === null ? null : componentValue(observation, "distance_meters")! / 1000, "km", 2),
    withUnit(componentValue(observation, "active_energy_kcal"), "active kcal", 0),
    active === null ? null : `${formatMinutes(active)} active`,
    withUnit(componentValue(observation, "resting_heart_rate"), "bpm resting", 0),
    sleepMinutes === null ? null : `${formatMinutes(sleepMinutes)} sleep`,
  ]) || "No figures";
}

function ecg(observation: Observation): string {
  return join([observation.valueCodeableConcept?.text ?? "Not classified", withUnit(componentValue(observation, "average_heart_rate"), "bpm avg", 0)]);
}

function nutrition(observation: Observation): string {
  return join([
    componentText(observation, "meal_type"),
    withUnit(componentValue(observation, "energy_kcal"), "kcal", 0),
    withUnit(componentValue(observation, "protein_grams"), "g protein", 0),
    withUnit(componentValue(observation, "carbohydrates_grams"), "g carbs", 0),
    withUnit(componentValue(observation, "fat_grams"), "g fat", 0),
  ]) || "Logged";
}

/** One line a person can read for an Observation of svc: its value, or a record's main figures. */
export function describeObservation(observation: Observation, kind: ObservationKind): string {
  if (kind.kind !== "record") return quantity(observation);
  switch (kind.record) {
    case "blood_pressure":
      return bloodPressure(observation);
    case "sleep_session":
      return sleep(observation);
    case "workout":
      return workout(observation);
    case "daily_summary":
      return daily(observation);
    case "ecg_recording":
      return ecg(observation);
    case "nutrition_log":
      return nutrition(observation);
  }
}
