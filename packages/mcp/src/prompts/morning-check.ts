import type { PromptDefinition } from "../prompt-definition.ts";
import { daysBefore, GROUND_RULES, today, whoseData, ZUserIdPromptArgument } from "./prompt-parts.ts";

export const morningCheck: PromptDefinition = {
  name: "morning_check",
  title: "Morning check",
  description: "How last night's sleep and this morning's recovery compare with the user's own last two weeks, and what that suggests for today.",
  arguments: { user_id: ZUserIdPromptArgument },
  text({ user_id }) {
    const end = daysBefore(today(), -1);
    const start = daysBefore(today(), 14);
    return [
      "Give me a short morning check.",
      whoseData(user_id),
      `1. get_sleep from ${daysBefore(today(), 1)} to ${end}: last night's session (bedtime, time asleep, deep and REM, awake time, efficiency).`,
      `2. get_daily and get_sample_stats (types resting_heart_rate and hrv_sdnn or hrv_rmssd, interval day) from ${start} to ${end}: compare last night and this morning with the median of the 14 days before.`,
      `3. get_tags from ${start} to ${end}: illness, travel, alcohol or a hard session explain a lot.`,
      "Answer in at most six lines: how last night compares, whether recovery looks normal, lower or higher than usual (say by how much), and one practical suggestion for today.",
      GROUND_RULES,
    ].join("\n");
  },
};
