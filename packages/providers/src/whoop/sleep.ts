import { emptyParsedRecords, type ParsedRecords } from "@svc/core";
import { idOf, instantOf, isObject, numberOf, offsetOf, recordsOf, reject, scoreOf, secondsOf, textOf, WHOOP_PROVENANCE } from "./documents.ts";

/**
 * sleep: one sleep session per sleep or nap, its stage totals from the stage summary
 * (milliseconds; slow wave sleep is deep sleep). WHOOP gives no hypnogram in the API, so
 * sessions have no phases. Sleep performance (0-100 %) is WHOOP's sleep score; for a night
 * (not a nap) it and the breathing rate are also daily figures at the night's end.
 */
export function parseWhoopSleep(payload: unknown): ParsedRecords {
  const out = emptyParsedRecords();
  for (const { record, locator } of recordsOf(payload, "whoop-sleep")) {
    if (!record) {
      reject(out, "sleep_session", locator, "the record is not an object");
      continue;
    }
    const id = textOf(record.id);
    const start = instantOf(record.start);
    const end = instantOf(record.end);
    if (!id) reject(out, "sleep_session", locator, "id is missing");
    else if (!start || !end) reject(out, "sleep_session", locator, "start or end is not a date-time");
    else if (end < start) reject(out, "sleep_session", locator, "end is before start");
    else {
      const nap = record.nap === true;
      const timezone = offsetOf(record.timezone_offset);
      const score = scoreOf(record);
      const stages = score && isObject(score.stage_summary) ? score.stage_summary : {};
      const light = secondsOf(stages.total_light_sleep_time_milli);
      const deep = secondsOf(stages.total_slow_wave_sleep_time_milli);
      const rem = secondsOf(stages.total_rem_sleep_time_milli);
      const efficiency = score ? numberOf(score.sleep_efficiency_percentage) : null;
      const performance = score ? numberOf(score.sleep_performance_percentage) : null;
      const breathing = score ? numberOf(score.respiratory_rate) : null;
      out.sleepSessions.push({
        kind: nap ? "nap" : "sleep",
        bedtime_start: start,
        bedtime_end: end,
        timezone,
        total_sleep_seconds: light === null && deep === null && rem === null ? null : (light ?? 0) + (deep ?? 0) + (rem ?? 0),
        awake_seconds: secondsOf(stages.total_awake_time_milli),
        light_seconds: light,
        deep_seconds: deep,
        rem_seconds: rem,
        efficiency: efficiency === null ? null : efficiency / 100,
        score: performance,
        respiratory_rate: breathing,
        ...WHOOP_PROVENANCE,
        external_id: id,
        metadata: {
          cycle_id: idOf(record.cycle_id),
          score_state: textOf(record.score_state),
          in_bed_seconds: secondsOf(stages.total_in_bed_time_milli),
          no_data_seconds: secondsOf(stages.total_no_data_time_milli),
          sleep_cycle_count: numberOf(stages.sleep_cycle_count),
          disturbance_count: numberOf(stages.disturbance_count),
          sleep_consistency_percentage: score ? numberOf(score.sleep_consistency_percentage) : null,
        },
        locator,
      });
      if (nap) continue;
      const figures: Array<[string, number | null, string]> = [
        ["sleep_score", performance, "score"],
        ["respiratory_rate", breathing, "count/min"],
      ];
      for (const [type, value, unit] of figures) {
        if (value === null) continue;
        out.quantitySamples.push({ type, value, unit, start_date: end, end_date: end, ...WHOOP_PROVENANCE, external_id: id, timezone, locator });
      }
    }
  }
  return out;
}
