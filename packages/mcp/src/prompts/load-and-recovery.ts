import type { PromptDefinition } from "../prompt-definition.ts";
import { daysBefore, GROUND_RULES, today, whoseData, ZUserIdPromptArgument } from "./prompt-parts.ts";

export const loadAndRecovery: PromptDefinition = {
  name: "load_and_recovery",
  title: "Load and recovery",
  description: "Relates training load to recovery signals over the last six weeks: acute versus chronic load, resting heart rate, HRV and sleep.",
  arguments: { user_id: ZUserIdPromptArgument },
  text({ user_id }) {
    const end = daysBefore(today(), -1);
    const start = daysBefore(today(), 42);
    return [
      "Relate my training load to my recovery.",
      whoseData(user_id),
      `1. get_workouts from ${start} to ${end}: daily load (duration x intensity, or energy) per day.`,
      `2. get_sample_stats from ${start} to ${end}, interval day: resting_heart_rate, and hrv_sdnn or hrv_rmssd (use list_quantity_types for the names).`,
      `3. get_sleep from ${start} to ${end}: time asleep per night.`,
      "Compute the last 7 days' load against the 28-day average (acute:chronic ratio) and show whether resting heart rate rose or HRV fell on the days after heavy load.",
      "Say whether load and recovery look balanced, and which days stand out.",
      GROUND_RULES,
    ].join("\n");
  },
};
