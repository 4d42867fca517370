import type { PromptDefinition } from "../prompt-definition.ts";
import { daysBefore, GROUND_RULES, today, whoseData, ZUserIdPromptArgument } from "./prompt-parts.ts";

export const raceWeekSleep: PromptDefinition = {
  name: "race_week_sleep",
  title: "Race week sleep",
  description: "Compares the last seven nights with the user's usual sleep, to plan the nights before a race.",
  arguments: { user_id: ZUserIdPromptArgument },
  text({ user_id }) {
    const end = daysBefore(today(), -1);
    const weekStart = daysBefore(today(), 7);
    const baselineStart = daysBefore(weekStart, 28);
    return [
      "Help me sleep well in race week.",
      whoseData(user_id),
      `1. get_sleep from ${baselineStart} to ${weekStart} (usual) and from ${weekStart} to ${end} (this week).`,
      "2. Compare bedtime, wake time, time asleep and awake time with the usual nights; note any short or broken night.",
      `3. get_tags from ${weekStart} to ${end}: travel or time zone changes; get_daily for resting heart rate.`,
      "Suggest a bedtime and wake time for the remaining nights, and what to do about a poor last night before the race (one bad night rarely matters).",
      GROUND_RULES,
    ].join("\n");
  },
};
