import { z } from "zod";
import { ZOutranked, ZProvenance } from "../../schemas/records.ts";

const seconds = (what: string) => z.number().int().nullable().describe(`${what}, in seconds; null when the provider gave none and no phases tell it.`);

export const ZSleepSession = z.object({
  id: z.uuid().describe("The sleep session's id; its phases are at /v1/users/{id}/sleep/{session_id}/phases."),
  kind: z.enum(["sleep", "nap"]).describe("`sleep` for a main sleep, `nap` for a nap."),
  bedtime_start: z.iso.datetime().describe("When the session began (going to bed)."),
  bedtime_end: z.iso.datetime().describe("When the session ended (getting up), exclusive."),
  timezone: z.string().nullable().describe("The IANA zone or ±hh:mm offset of the night, when known."),
  total_sleep_seconds: seconds("Time asleep (light + deep + rem + asleep of unknown stage)"),
  awake_seconds: seconds("Time awake between bedtime_start and bedtime_end"),
  light_seconds: seconds("Time in light sleep (core sleep in HealthKit)"),
  deep_seconds: seconds("Time in deep sleep"),
  rem_seconds: seconds("Time in REM sleep"),
  latency_seconds: seconds("Time from bedtime_start to falling asleep"),
  efficiency: z.number().nullable().describe("Time asleep divided by time in bed, 0 to 1."),
  score: z.number().nullable().describe("The provider's sleep score, 0 to 100 (e.g. Oura's sleep score)."),
  average_heart_rate: z.number().nullable().describe("Average heart rate during the session, count/min."),
  lowest_heart_rate: z.number().nullable().describe("Lowest heart rate during the session, count/min."),
  average_hrv: z.number().nullable().describe("Average heart rate variability (RMSSD) during the session, ms."),
  respiratory_rate: z.number().nullable().describe("Average breathing rate during the session, breaths/min."),
  source_name: z.string().nullable().describe("The app or device name as the source reported it."),
  external_id: z.string().nullable().describe("The provider's id of the session."),
  metadata: z.record(z.string(), z.unknown()).describe("Provider fields as sent."),
  ...ZProvenance,
  outranked: ZOutranked,
});

export const ZSleepPhase = z.object({
  id: z.number().int().describe("The phase's id."),
  stage: z
    .enum(["awake", "light", "deep", "rem", "asleep", "in_bed", "out_of_bed"])
    .describe("`awake`, `light` (core), `deep`, `rem`, `asleep` (asleep, stage unknown), `in_bed` (in bed, sleep not tracked) or `out_of_bed`."),
  start_date: z.iso.datetime().describe("Start of the phase."),
  end_date: z.iso.datetime().describe("End of the phase, exclusive."),
});
