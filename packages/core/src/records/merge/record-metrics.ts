import type { MatchKind } from "./match-kinds.ts";

/** Metrics of the record kinds that are not samples: their group and how they match. */
export const RECORD_METRICS: Readonly<Record<string, { group: string; kind: MatchKind }>> = {
  sleep_session: { group: "sleep", kind: "sessions" },
  workout: { group: "workouts", kind: "sessions" },
  daily_summary: { group: "activity", kind: "other" },
};
