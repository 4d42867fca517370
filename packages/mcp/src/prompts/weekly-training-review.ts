import type { PromptDefinition } from "../prompt-definition.ts";
import { daysBefore, GROUND_RULES, today, whoseData, ZUserIdPromptArgument } from "./prompt-parts.ts";

export const weeklyTrainingReview: PromptDefinition = {
  name: "weekly_training_review",
  title: "Weekly training review",
  description: "Reviews the last seven days of workouts against the four weeks before: volume, intensity, consistency and recovery.",
  arguments: { user_id: ZUserIdPromptArgument },
  text({ user_id }) {
    const end = daysBefore(today(), -1);
    const weekStart = daysBefore(today(), 6);
    const baselineStart = daysBefore(weekStart, 28);
    return [
      "Review my training week.",
      whoseData(user_id),
      `1. get_workouts from ${weekStart} to ${end} (this week) and from ${baselineStart} to ${weekStart} (the four weeks before).`,
      "2. Compare sessions, total duration, distance and energy per activity type, and time at high heart rate, with the weekly average of the four weeks before.",
      `3. get_daily from ${baselineStart} to ${end} for resting heart rate and readiness or recovery scores; get_sleep for the same window.`,
      `4. get_tags from ${baselineStart} to ${end}: races, illness, travel.`,
      "Report: what the week contained, how it compares (percent change in load), whether recovery kept up, and one suggestion for next week.",
      GROUND_RULES,
    ].join("\n");
  },
};
