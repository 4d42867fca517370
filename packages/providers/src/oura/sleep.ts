import { emptyParsedRecords, type ParsedRecords, type QuantitySampleRecord, type SleepPhaseRecord } from "@svc/core";
import { dayOf, documentsOf, instantOf, numberOf, offsetOf, OURA_PROVENANCE, reject, textOf, type OuraDocument } from "./documents.ts";

const PHASE_SECONDS = 300;
/** sleep_phase_5_min: one character per 5 minutes from bedtime_start. */
const PHASES: Readonly<Record<string, string>> = { "1": "deep", "2": "light", "3": "rem", "4": "awake" };
/** Sleep periods the user removed (`deleted`) or rejected as falsely detected (`rest`). */
const NOT_SLEEP = new Set(["deleted", "rest"]);
/** `sleep` (15 minutes to 3 hours) and `late_nap` are naps; `long_sleep` is the night. */
const NAPS = new Set(["sleep", "late_nap"]);

/**
 * sleep: one sleep session per period, its stages from the 5-minute hypnogram. Periods the
 * user deleted or rejected are reported deleted. The night's (long_sleep) lowest heart rate,
 * average HRV (RMSSD) and breathing rate also become daily figures at its end, the morning
 * the night belongs to.
 */
export function parseSleep(payload: unknown): ParsedRecords {
  const out = emptyParsedRecords();
  const deleted: string[] = [];
  for (const { document, locator } of documentsOf(payload, "oura-sleep")) {
    if (!document) {
      reject(out, "sleep_session", locator, "the document is not an object");
      continue;
    }
    const id = textOf(document.id);
    if (!id) {
      reject(out, "sleep_session", locator, "id is missing");
      continue;
    }
    const type = textOf(document.type) ?? "long_sleep";
    if (NOT_SLEEP.has(type)) {
      deleted.push(id);
      continue;
    }
    const start = instantOf(document.bedtime_start);
    const end = instantOf(document.bedtime_end);
    if (!start || !end) {
      reject(out, "sleep_session", locator, "bedtime_start or bedtime_end is not a date-time with an offset");
      continue;
    }
    if (end < start) {
      reject(out, "sleep_session", locator, "bedtime_end is before bedtime_start");
      continue;
    }
    const timezone = offsetOf(document.bedtime_start);
    const efficiency = numberOf(document.efficiency);
    out.sleepSessions.push({
      kind: NAPS.has(type) ? "nap" : "sleep",
      bedtime_start: start,
      bedtime_end: end,
      timezone,
      total_sleep_seconds: numberOf(document.total_sleep_duration),
      awake_seconds: numberOf(document.awake_time),
      light_seconds: numberOf(document.light_sleep_duration),
      deep_seconds: numberOf(document.deep_sleep_duration),
      rem_seconds: numberOf(document.rem_sleep_duration),
      latency_seconds: numberOf(document.latency),
      // Oura rates efficiency 1-100; the session keeps a fraction.
      efficiency: efficiency === null ? null : efficiency / 100,
      average_heart_rate: numberOf(document.average_heart_rate),
      lowest_heart_rate: numberOf(document.lowest_heart_rate),
      average_hrv: numberOf(document.average_hrv),
      respiratory_rate: numberOf(document.average_breath),
      ...OURA_PROVENANCE,
      external_id: id,
      metadata: {
        day: dayOf(document.day),
        type,
        time_in_bed_seconds: numberOf(document.time_in_bed),
        restless_periods: numberOf(document.restless_periods),
        sleep_score_delta: numberOf(document.sleep_score_delta),
        readiness_score_delta: numberOf(document.readiness_score_delta),
        sleep_algorithm_version: textOf(document.sleep_algorithm_version),
      },
      locator,
      phases: phasesOf(document.sleep_phase_5_min, start, end),
    });
    if (type === "long_sleep") out.quantitySamples.push(...nightFigures(document, id, end, timezone, locator));
  }
  if (deleted.length > 0) out.deletedExternalIds = deleted;
  return out;
}

/** Runs of one stage in the 5-minute hypnogram, the last cut at bedtime_end; unknown characters leave a gap. */
function phasesOf(hypnogram: unknown, start: Date, end: Date): SleepPhaseRecord[] | undefined {
  if (typeof hypnogram !== "string" || hypnogram === "") return undefined;
  const phases: SleepPhaseRecord[] = [];
  let index = 0;
  while (index < hypnogram.length) {
    const stage = PHASES[hypnogram[index] as string];
    let next = index + 1;
    while (next < hypnogram.length && hypnogram[next] === hypnogram[index]) next++;
    const phaseStart = new Date(start.getTime() + index * PHASE_SECONDS * 1000);
    const phaseEnd = new Date(Math.min(start.getTime() + next * PHASE_SECONDS * 1000, end.getTime()));
    if (stage && phaseStart < phaseEnd) phases.push({ stage, start_date: phaseStart, end_date: phaseEnd });
    index = next;
  }
  return phases;
}

function nightFigures(document: OuraDocument, id: string, end: Date, timezone: string | null, locator: string): QuantitySampleRecord[] {
  const figures: Array<[string, unknown, string]> = [
    ["resting_heart_rate", document.lowest_heart_rate, "count/min"],
    ["hrv_rmssd", document.average_hrv, "ms"],
    ["respiratory_rate", document.average_breath, "count/min"],
  ];
  const samples: QuantitySampleRecord[] = [];
  for (const [type, raw, unit] of figures) {
    const value = numberOf(raw);
    if (value === null) continue;
    samples.push({ type, value, unit, start_date: end, end_date: end, ...OURA_PROVENANCE, external_id: id, timezone, metadata: { day: dayOf(document.day) }, locator });
  }
  return samples;
}
