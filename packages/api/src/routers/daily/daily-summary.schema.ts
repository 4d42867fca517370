import { z } from "zod";
import { ZOutranked, ZProvenance } from "../../schemas/records.ts";

const figure = (what: string) => z.number().nullable().describe(`${what}; null when not known.`);

export const ZDailySummary = z.object({
  id: z.uuid().describe("The daily summary's id."),
  date: z.iso.date().describe("The local day the figures are for (YYYY-MM-DD)."),
  timezone: z.string().nullable().describe("The zone (IANA or ±hh:mm) the day is local to, when known."),
  steps: figure("Steps taken that day"),
  distance_meters: figure("Distance walked and run, in meters"),
  active_energy_kcal: figure("Active energy burned, in kcal"),
  total_energy_kcal: figure("Active plus resting (basal) energy burned, in kcal"),
  floors_climbed: figure("Floors climbed"),
  active_seconds: z.number().int().nullable().describe("Time active, in seconds; null when not known."),
  resting_heart_rate: figure("Resting heart rate, in beats per minute"),
  average_heart_rate: figure("Average heart rate, in beats per minute"),
  hrv_rmssd: figure("Heart rate variability (RMSSD), in milliseconds"),
  sleep_seconds: z.number().int().nullable().describe("Time asleep attributed to the day, in seconds; null when not known."),
  score: figure("The provider's score for the day (e.g. readiness or activity score)"),
  derived: z
    .boolean()
    .describe(
      "True when svc computed the summary from the provider's samples (steps, energy, distance) because the provider sent no daily summary for the day; false for a summary the provider sent.",
    ),
  metadata: z.record(z.string(), z.unknown()).describe("Provider fields as sent; for a derived summary `derived_from`, the sample types summed."),
  ...ZProvenance,
  outranked: ZOutranked,
});
