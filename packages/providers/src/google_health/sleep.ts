// The `sleep` session data type to sleep sessions with stages.
import type { SleepPhaseRecord, SleepSessionRecord } from "@svc/core";
import type { Provenance } from "./data-source.ts";
import { isObject, numberOf, textOf, type JsonObject } from "./json.ts";
import { instantOf, offsetOf } from "./times.ts";

/** Google Health's stage types as svc's stages; RESTLESS is not counted as asleep (as in Fitbit's classic sleep). */
const STAGES: Readonly<Record<string, string>> = {
  AWAKE: "awake",
  LIGHT: "light",
  DEEP: "deep",
  REM: "rem",
  ASLEEP: "asleep",
  RESTLESS: "awake",
};

/**
 * A session from the physical interval (offset from `startUtcOffset`), its stages as
 * phases, the summary's minutes as seconds; efficiency is minutes asleep over the
 * minutes of the sleep period. Naps (metadata.nap) are `nap` sessions.
 */
export function sleepSession(body: JsonObject, provenance: Provenance, externalId: string | null): SleepSessionRecord | string {
  const interval = isObject(body.interval) ? body.interval : {};
  const start = instantOf(interval.startTime);
  const end = instantOf(interval.endTime);
  if (!start || !end) return "interval.startTime or endTime is not an RFC 3339 time";
  const summary = isObject(body.summary) ? body.summary : {};
  const meta = isObject(body.metadata) ? body.metadata : {};
  const minutes = (value: unknown) => numberOf(value);
  const stageMinutes = (type: string) => {
    const stages = Array.isArray(summary.stagesSummary) ? summary.stagesSummary : [];
    const found = stages.find((stage: unknown) => isObject(stage) && stage.type === type);
    return isObject(found) ? numberOf(found.minutes) : null;
  };
  const seconds = (value: number | null) => (value === null ? null : value * 60);
  const asleep = minutes(summary.minutesAsleep);
  const period = minutes(summary.minutesInSleepPeriod);
  const metadata: Record<string, unknown> = { ...provenance.metadata };
  const sleepType = textOf(body.type, 20);
  const stagesStatus = textOf(meta.stagesStatus, 40);
  if (sleepType) metadata.sleep_type = sleepType;
  if (stagesStatus) metadata.stages_status = stagesStatus;
  return {
    ...provenance,
    kind: meta.nap === true ? "nap" : "sleep",
    bedtime_start: start,
    bedtime_end: end,
    timezone: offsetOf(interval.startUtcOffset),
    total_sleep_seconds: seconds(asleep),
    awake_seconds: seconds(minutes(summary.minutesAwake)),
    light_seconds: seconds(stageMinutes("LIGHT")),
    deep_seconds: seconds(stageMinutes("DEEP")),
    rem_seconds: seconds(stageMinutes("REM")),
    latency_seconds: seconds(minutes(summary.minutesToFallAsleep)),
    efficiency: asleep !== null && period !== null && period > 0 ? asleep / period : null,
    external_id: externalId,
    metadata,
    phases: phasesOf(body.stages),
  };
}

function phasesOf(stages: unknown): SleepPhaseRecord[] {
  if (!Array.isArray(stages)) return [];
  const phases: SleepPhaseRecord[] = [];
  for (const stage of stages) {
    if (!isObject(stage)) continue;
    const name = typeof stage.type === "string" && Object.hasOwn(STAGES, stage.type) ? STAGES[stage.type] : undefined;
    const start = instantOf(stage.startTime);
    const end = instantOf(stage.endTime);
    if (name && start && end && end > start) phases.push({ stage: name, start_date: start, end_date: end });
  }
  return phases;
}
