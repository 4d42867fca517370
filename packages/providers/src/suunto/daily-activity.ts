// Suunto's daily activity statistics as daily summaries. The answer is a list of
// statistics (`Name` stepcount or energyconsumption, `Aggregation` sum), each with its
// `Sources` (a device's 24/7 stream) and their `Samples` (`TimeISO8601`, `Value`, null on
// a day without data). Suunto keeps and answers these in UTC, so a day is the UTC date of
// the sample's time. Energy is in joules (kcal = J / 4184). When two sources give a day,
// the larger figure is kept: a watch worn all day and one worn an hour are not added up.

import type { DailySummaryRecord } from "@svc/core";
import { emptyParsedRecords, MalformedUpload, type ParsedRecords } from "../parsed-records.ts";
import { isObject } from "./json.ts";

export const SUUNTO_DAILY_ACTIVITY_FORMAT = "suunto-daily-activity";

const JOULES_PER_KCAL = 4184;
const FIELD_OF_STATISTIC: Readonly<Record<string, "steps" | "total_energy_kcal">> = { stepcount: "steps", energyconsumption: "total_energy_kcal" };

export function parseSuuntoDailyActivity(payload: unknown): ParsedRecords {
  if (!Array.isArray(payload)) throw new MalformedUpload("daily_activity", "a Suunto daily activity payload is the list of daily statistics");
  const days = new Map<string, { steps: number | null; total_energy_kcal: number | null }>();
  const out = emptyParsedRecords();
  payload.forEach((statistic, index) => {
    const field = isObject(statistic) && typeof statistic.Name === "string" ? FIELD_OF_STATISTIC[statistic.Name.toLowerCase()] : undefined;
    if (!isObject(statistic) || !field || !Array.isArray(statistic.Sources)) return;
    for (const source of statistic.Sources) {
      if (!isObject(source) || !Array.isArray(source.Samples)) continue;
      for (const sample of source.Samples) {
        const date = isObject(sample) ? dateOf(sample.TimeISO8601) : null;
        const raw = isObject(sample) ? sample.Value : null;
        if (raw === null || raw === undefined) continue;
        if (!date || typeof raw !== "number" || !Number.isFinite(raw) || raw < 0) {
          out.rejected.push({ recordKind: "daily_summary", locator: `[${index}]`, reason: "suunto daily statistic: a sample's time or value is invalid" });
          continue;
        }
        const value = field === "steps" ? Math.round(raw) : Math.round((raw / JOULES_PER_KCAL) * 10) / 10;
        const day = days.get(date) ?? { steps: null, total_energy_kcal: null };
        day[field] = Math.max(day[field] ?? 0, value);
        days.set(date, day);
      }
    }
  });
  for (const [date, figures] of [...days.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const record: DailySummaryRecord = { date, ...figures, source: "suunto", on_body: true, metadata: {}, locator: date };
    out.dailySummaries.push(record);
  }
  return out;
}

/** The UTC date of `2019-02-12T00:00:00.000` (a zone, when given, is honoured). */
function dateOf(value: unknown): string | null {
  if (typeof value !== "string" || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(value)) return null;
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/.test(value) ? value : `${value}Z`;
  const ms = Date.parse(zoned);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString().slice(0, 10);
}
