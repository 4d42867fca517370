// Payload `garmin-sleeps`: sleep summaries with their levels, naps, and the respiration and
// SpO2 readings taken during sleep.

import { emptyParsedRecords, type ParsedRecords, type SleepPhaseRecord } from "@svc/core";
import { amountOf, GARMIN_WORN, instantOf, isObject, numberOf, offsetOf, offsetReadings, summariesOf, textOf, type JsonObject } from "./fields.ts";

/** Garmin's sleep levels as the catalog's stages. */
const LEVELS: Readonly<Record<string, string>> = { deep: "deep", light: "light", rem: "rem", awake: "awake" };

/**
 * One session per summary, from `startTimeInSeconds` for `durationInSeconds` (Garmin's
 * examples count the awake time in it: deep + light + REM + awake = duration), with the
 * stage totals (s), asleep = deep + light + REM, the overall sleep score, and phases from
 * `sleepLevelsMap`. An OFF_WRIST summary has only its times. Naps are sessions of kind
 * `nap`. `timeOffsetSleepRespiration` and `timeOffsetSleepSpo2` become `respiratory_rate`
 * and `oxygen_saturation` samples. A summary with the same start replaces the earlier one
 * (Garmin's rule), hence the external id `sleeps:<start>`.
 */
export function parseGarminSleeps(payload: unknown): ParsedRecords {
  const out = emptyParsedRecords();
  summariesOf(payload, "garmin-sleeps").forEach((raw, index) => {
    const locator = `sleeps[${index}]`;
    const start = isObject(raw) ? instantOf(raw.startTimeInSeconds) : undefined;
    const duration = isObject(raw) ? amountOf(raw.durationInSeconds) : null;
    if (!isObject(raw) || !start || duration === null) {
      out.rejected.push({ recordKind: "sleep_session", locator, reason: "sleep without a startTimeInSeconds or a durationInSeconds" });
      return;
    }
    const timezone = offsetOf(raw.startTimeOffsetInSeconds);
    const validation = textOf(raw.validation, 40);
    const measured = validation !== "OFF_WRIST";
    const deep = measured ? amountOf(raw.deepSleepDurationInSeconds) : null;
    const light = measured ? amountOf(raw.lightSleepDurationInSeconds) : null;
    const rem = measured ? amountOf(raw.remSleepInSeconds) : null;
    const score = isObject(raw.overallSleepScore) ? amountOf(raw.overallSleepScore.value) : null;
    out.sleepSessions.push({
      kind: "sleep",
      bedtime_start: start,
      bedtime_end: new Date(start.getTime() + duration * 1000),
      timezone,
      total_sleep_seconds: deep !== null && light !== null ? deep + light + (rem ?? 0) : null,
      awake_seconds: measured ? amountOf(raw.awakeDurationInSeconds) : null,
      light_seconds: light,
      deep_seconds: deep,
      rem_seconds: rem,
      score,
      ...GARMIN_WORN,
      external_id: `sleeps:${start.getTime() / 1000}`,
      metadata: metadataOf(raw),
      locator,
      ...(measured ? { phases: phasesOf(raw.sleepLevelsMap) } : {}),
    });
    out.sleepSessions.push(...napsOf(raw, locator));
    const samples = { ...GARMIN_WORN, timezone, locator };
    for (const { at, value } of offsetReadings(raw.timeOffsetSleepRespiration, start).readings) {
      if (value > 0) out.quantitySamples.push({ ...samples, type: "respiratory_rate", value, unit: "count/min", start_date: at });
    }
    for (const { at, value } of offsetReadings(raw.timeOffsetSleepSpo2, start).readings) {
      if (value > 0 && value <= 100) out.quantitySamples.push({ ...samples, type: "oxygen_saturation", value, unit: "%", start_date: at });
    }
  });
  return out;
}

function phasesOf(map: unknown): SleepPhaseRecord[] {
  const phases: SleepPhaseRecord[] = [];
  if (!isObject(map)) return phases;
  for (const [level, ranges] of Object.entries(map)) {
    const stage = Object.hasOwn(LEVELS, level) ? LEVELS[level] : undefined;
    if (!stage || !Array.isArray(ranges)) continue;
    for (const range of ranges) {
      const start = isObject(range) ? instantOf(range.startTimeInSeconds) : undefined;
      const end = isObject(range) ? instantOf(range.endTimeInSeconds) : undefined;
      if (start && end && end > start) phases.push({ stage, start_date: start, end_date: end });
    }
  }
  return phases.sort((a, b) => a.start_date.getTime() - b.start_date.getTime());
}

function napsOf(raw: JsonObject, locator: string) {
  if (!Array.isArray(raw.naps)) return [];
  return raw.naps.flatMap((nap, i) => {
    const start = isObject(nap) ? instantOf(nap.napStartTimeInSeconds) : undefined;
    const duration = isObject(nap) ? amountOf(nap.napDurationInSeconds) : null;
    if (!isObject(nap) || !start || duration === null) return [];
    const validation = textOf(nap.napValidation, 40);
    return [
      {
        kind: "nap",
        bedtime_start: start,
        bedtime_end: new Date(start.getTime() + duration * 1000),
        timezone: offsetOf(nap.napOffsetInSeconds),
        ...GARMIN_WORN,
        external_id: `naps:${start.getTime() / 1000}`,
        metadata: validation ? { validation } : {},
        locator: `${locator}.naps[${i}]`,
      },
    ];
  });
}

function metadataOf(raw: JsonObject): Record<string, unknown> {
  const metadata: Record<string, unknown> = {};
  const summaryId = textOf(raw.summaryId, 100);
  if (summaryId) metadata.summary_id = summaryId;
  const validation = textOf(raw.validation, 40);
  if (validation) metadata.validation = validation;
  const unmeasurable = numberOf(raw.unmeasurableSleepInSeconds ?? raw.unmeasurableSleepDurationInSeconds);
  if (unmeasurable !== undefined) metadata.unmeasurable_seconds = unmeasurable;
  const qualifier = isObject(raw.overallSleepScore) ? textOf(raw.overallSleepScore.qualifierKey, 40) : undefined;
  if (qualifier) metadata.sleep_score_qualifier = qualifier;
  return metadata;
}
