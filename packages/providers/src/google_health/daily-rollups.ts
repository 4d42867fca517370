// dailyRollUp answers (one per data type, same days) to daily summaries.
import { emptyParsedRecords, type DailySummaryRecord, type ParsedRecords } from "@svc/core";
import { isObject, numberOf, type JsonObject } from "./json.ts";
import { zoneOf } from "./payload.ts";
import { calendarDateOf } from "./times.ts";

/** The data types rolled up per day for the daily summaries (all under the activity_and_fitness scope). */
export const ROLLUP_TYPES = ["steps", "distance", "floors", "total-calories", "active-energy-burned", "active-minutes"] as const;

type Figures = Partial<Record<"steps" | "distance_meters" | "floors_climbed" | "total_energy_kcal" | "active_energy_kcal" | "active_seconds", number>>;

/** The figure one rollup point gives, in the catalog's unit. */
function figureOf(dataType: string, point: JsonObject): Figures {
  const value = (field: string, inner: string) => (isObject(point[field]) ? numberOf((point[field] as JsonObject)[inner]) : null);
  switch (dataType) {
    case "steps": {
      const steps = value("steps", "countSum");
      return steps === null ? {} : { steps };
    }
    case "distance": {
      const millimetres = value("distance", "millimetersSum");
      return millimetres === null ? {} : { distance_meters: millimetres / 1000 };
    }
    case "floors": {
      const floors = value("floors", "countSum");
      return floors === null ? {} : { floors_climbed: floors };
    }
    case "total-calories": {
      const kcal = value("totalCalories", "kcalSum");
      return kcal === null ? {} : { total_energy_kcal: kcal };
    }
    case "active-energy-burned": {
      const kcal = value("activeEnergyBurned", "kcalSum");
      return kcal === null ? {} : { active_energy_kcal: kcal };
    }
    case "active-minutes": {
      // Moderate and vigorous minutes count as active, as Fitbit's fairly and very active minutes did.
      const levels = isObject(point.activeMinutes) && Array.isArray(point.activeMinutes.activeMinutesRollupByActivityLevel) ? point.activeMinutes.activeMinutesRollupByActivityLevel : null;
      if (!levels) return {};
      let minutes = 0;
      for (const level of levels) {
        if (isObject(level) && (level.activityLevel === "MODERATE" || level.activityLevel === "VIGOROUS")) minutes += numberOf(level.activeMinutesSum) ?? 0;
      }
      return { active_seconds: minutes * 60 };
    }
    default:
      return {};
  }
}

/**
 * One daily summary per civil date the rollups name, merging the data types: steps,
 * distance (millimetres to metres), floors, total and active energy (kcal), and active
 * time (moderate plus vigorous minutes, in seconds).
 */
export function parseDailyRollups(payload: unknown): ParsedRecords {
  if (!isObject(payload) || !isObject(payload.responses)) throw new Error("google_health-daily-rollups: the payload has no responses");
  const zone = zoneOf(payload);
  const out = emptyParsedRecords();
  const days = new Map<string, Figures>();
  for (const [dataType, answer] of Object.entries(payload.responses)) {
    const points = isObject(answer) ? (answer.rollupDataPoints ?? []) : null;
    if (!Array.isArray(points)) {
      out.rejected.push({ recordKind: "daily_rollup", locator: `responses.${dataType}`, reason: `daily_rollup: ${dataType} answer has no rollupDataPoints list` });
      continue;
    }
    points.forEach((point: unknown, index) => {
      const date = isObject(point) && isObject(point.civilStartTime) ? calendarDateOf(point.civilStartTime.date) : null;
      if (!isObject(point) || date === null) {
        out.rejected.push({ recordKind: "daily_rollup", locator: `responses.${dataType}[${index}]`, reason: "daily_rollup: civilStartTime.date is not a calendar date" });
        return;
      }
      days.set(date, { ...days.get(date), ...figureOf(dataType, point) });
    });
  }
  for (const [date, figures] of [...days].sort(([a], [b]) => a.localeCompare(b))) {
    const summary: DailySummaryRecord = { date, timezone: zone.timezone, ...figures, locator: `days.${date}` };
    out.dailySummaries.push(summary);
  }
  return out;
}
