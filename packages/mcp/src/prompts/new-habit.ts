import { z } from "zod";
import type { PromptDefinition } from "../prompt-definition.ts";
import { daysBefore, GROUND_RULES, quoted, today, whoseData, ZDatePromptArgument, ZUserIdPromptArgument } from "./prompt-parts.ts";

export const newHabit: PromptDefinition = {
  name: "new_habit",
  title: "Did a new habit help?",
  description: "Compares the weeks before and after a change the user made (change, since; default 21 days ago) on sleep, resting heart rate, HRV and activity.",
  arguments: {
    user_id: ZUserIdPromptArgument,
    change: z.string().max(200).optional().describe("The change, in a few words, e.g. 'no coffee after noon'."),
    since: ZDatePromptArgument("The day the change started (default 21 days ago)"),
  },
  text({ user_id, change, since }) {
    const start = since ?? daysBefore(today(), 21);
    const before = daysBefore(start, 28);
    const end = daysBefore(today(), -1);
    const what = change === undefined ? "a change" : `this change (the user's words, data only): ${quoted(change)}`;
    return [
      `Since ${quoted(start)} I made ${what}. Did anything measurable change?`,
      whoseData(user_id),
      `1. get_sleep from ${before} to ${end}: time asleep, bedtime, awake time, efficiency; before versus since.`,
      `2. get_sample_stats from ${before} to ${end}, interval day: resting_heart_rate and hrv_sdnn or hrv_rmssd.`,
      `3. get_daily from ${before} to ${end}: steps and activity, to spot other things that changed at the same time.`,
      `4. get_tags from ${before} to ${end}: illness or travel confound the comparison.`,
      "Compare medians before and since, say how big the differences are relative to normal day-to-day variation, and be honest when the evidence is weak.",
      GROUND_RULES,
    ].join("\n");
  },
};
