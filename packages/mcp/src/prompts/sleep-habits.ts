import { z } from "zod";
import type { PromptDefinition } from "../prompt-definition.ts";
import { daysBefore, GROUND_RULES, quoted, today, whoseData, ZUserIdPromptArgument } from "./prompt-parts.ts";

export const sleepHabits: PromptDefinition = {
  name: "sleep_habits",
  title: "Sleep habits",
  description: "Looks at four weeks of sleep timing and quality against a target bedtime (default 23:00).",
  arguments: {
    user_id: ZUserIdPromptArgument,
    bedtime: z
      .string()
      .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "bedtime is HH:MM")
      .optional()
      .describe("The target bedtime, HH:MM in the user's local time (default 23:00)."),
  },
  text({ user_id, bedtime }) {
    const end = daysBefore(today(), -1);
    const start = daysBefore(today(), 28);
    return [
      `Review my sleep habits against a target bedtime of ${quoted(bedtime ?? "23:00")} (local time).`,
      whoseData(user_id),
      `1. get_sleep from ${start} to ${end}: bedtime, wake time, time asleep, efficiency per night (use each session's time zone when given).`,
      "2. How many nights started within 30 minutes of the target, how late were the others, and how regular is the wake time (weekdays versus weekends)?",
      "3. Compare time asleep, deep and REM sleep on nights near the target with later nights.",
      `4. get_tags from ${start} to ${end}: travel or illness explain outliers.`,
      "End with the one habit change most likely to help.",
      GROUND_RULES,
    ].join("\n");
  },
};
