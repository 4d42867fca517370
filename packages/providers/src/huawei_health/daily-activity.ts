// Health Kit daily statistics (`sampleSet:polymerize` grouped by day) as daily summaries:
// steps (`steps`, or `steps_delta`), distance (`distance`/`distance_delta`, m) and calories
// (`calories_total`/`calories`, kcal). svc asks for days cut at UTC (`timeZone` +0000), so a
// day is the UTC date of its group's start.

import type { DailySummaryRecord } from "@svc/core";
import { emptyParsedRecords, MalformedUpload, type ParsedRecords } from "../parsed-records.ts";
import { fieldsOf, instantOfNanos, isObject } from "./json.ts";

export const HUAWEI_DAILY_ACTIVITY_FORMAT = "huawei-health-daily-activity";

const FIGURES: ReadonlyArray<{ fields: readonly string[]; key: "steps" | "distance_meters" | "total_energy_kcal" }> = [
  { fields: ["steps", "steps_delta"], key: "steps" },
  { fields: ["distance", "distance_delta"], key: "distance_meters" },
  { fields: ["calories_total", "calories"], key: "total_energy_kcal" },
];

export function parseHuaweiDailyActivity(payload: unknown): ParsedRecords {
  if (!isObject(payload) || !Array.isArray(payload.group)) throw new MalformedUpload("daily_activity", "a Huawei Health daily activity payload is an answer of sampleSet:polymerize");
  const days = new Map<string, DailySummaryRecord>();
  const out = emptyParsedRecords();
  payload.group.forEach((group, index) => {
    if (!isObject(group) || !Array.isArray(group.sampleSet)) return;
    const start = instantOfGroupStart(group.startTime);
    if (!start) {
      out.rejected.push({ recordKind: "daily_summary", locator: `group[${index}]`, reason: "huawei daily group: the start time is not an epoch time" });
      return;
    }
    const date = start.toISOString().slice(0, 10);
    const day = days.get(date) ?? { date, source: "huawei", on_body: true, metadata: {}, locator: date };
    for (const set of group.sampleSet) {
      const points = isObject(set) && Array.isArray(set.samplePoints) ? set.samplePoints : [];
      for (const point of points) {
        if (!isObject(point)) continue;
        const values = fieldsOf(point);
        for (const { fields, key } of FIGURES) {
          const value = fields.map((name) => values.get(name)).find((v) => v !== undefined);
          if (value === undefined || value < 0) continue;
          day[key] = (day[key] ?? 0) + (key === "steps" ? Math.round(value) : value);
        }
      }
    }
    days.set(date, day);
  });
  for (const date of [...days.keys()].sort()) {
    const day = days.get(date);
    if (day && (day.steps != null || day.distance_meters != null || day.total_energy_kcal != null)) out.dailySummaries.push(day);
  }
  return out;
}

/** A group's start: milliseconds (13 digits, as asked) or nanoseconds (19 digits). */
function instantOfGroupStart(value: unknown): Date | null {
  const digits = typeof value === "number" && Number.isSafeInteger(value) ? String(value) : typeof value === "string" ? value : "";
  if (/^\d{13}$/.test(digits)) return instantOfNanos(`${digits}000000`);
  return instantOfNanos(value);
}
