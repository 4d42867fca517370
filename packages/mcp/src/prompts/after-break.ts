import type { PromptDefinition } from "../prompt-definition.ts";
import { daysBefore, GROUND_RULES, quoted, today, whoseData, ZDatePromptArgument, ZUserIdPromptArgument } from "./prompt-parts.ts";

export const afterBreak: PromptDefinition = {
  name: "after_break",
  title: "After a break",
  description: "Compares fitness and recovery before and after a break from training (break_start, break_end; default the last 14 days before today).",
  arguments: {
    user_id: ZUserIdPromptArgument,
    break_start: ZDatePromptArgument("First day of the break (default 14 days ago)"),
    break_end: ZDatePromptArgument("Last day of the break (default yesterday)"),
  },
  text({ user_id, break_start, break_end }) {
    const breakStart = break_start ?? daysBefore(today(), 14);
    const breakEnd = break_end ?? daysBefore(today(), 1);
    const before = daysBefore(breakStart, 28);
    const end = daysBefore(today(), -1);
    return [
      `I took a break from ${quoted(breakStart)} to ${quoted(breakEnd)} (both days included). Help me come back sensibly.`,
      whoseData(user_id),
      `1. get_workouts from ${before} to ${breakStart}: what training looked like in the four weeks before.`,
      `2. get_workouts and get_daily from ${breakStart} to ${end}: activity during and since the break.`,
      `3. get_sample_stats from ${before} to ${end}, interval day: resting_heart_rate and hrv_sdnn or hrv_rmssd.`,
      `4. get_tags from ${before} to ${end}: was the break illness, injury or travel?`,
      "Say how much fitness signals changed, and propose a ramp back (weekly volume as a share of the pre-break average).",
      GROUND_RULES,
    ].join("\n");
  },
};
