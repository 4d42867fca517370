import type { PromptDefinition } from "../prompt-definition.ts";
import { daysBefore, GROUND_RULES, quoted, today, whoseData, ZDatePromptArgument, ZUserIdPromptArgument } from "./prompt-parts.ts";

export const taperCheck: PromptDefinition = {
  name: "taper_check",
  title: "Taper check",
  description: "Checks whether training volume is tapering ahead of an event (event_date, default two weeks from today) and whether recovery is rising.",
  arguments: { user_id: ZUserIdPromptArgument, event_date: ZDatePromptArgument("The event's date (default 14 days from today)") },
  text({ user_id, event_date }) {
    const eventDate = event_date ?? daysBefore(today(), -14);
    const end = daysBefore(today(), -1);
    const start = daysBefore(today(), 42);
    return [
      `Check my taper for the event on ${quoted(eventDate)}.`,
      whoseData(user_id),
      `1. get_workouts from ${start} to ${end}: weekly volume (duration, distance) and the hardest sessions of each week.`,
      `2. get_sample_stats from ${start} to ${end}, interval day: resting_heart_rate and hrv_sdnn or hrv_rmssd; get_sleep for the last 14 days.`,
      `3. get_tags from ${start} to ${end}: illness, injury or travel.`,
      "Is volume coming down (typically 40 to 60 percent over the last one to two weeks) while some intensity stays? Are resting heart rate and HRV moving the right way?",
      "Say what to keep, what to cut, and anything that looks like a risk before the event.",
      GROUND_RULES,
    ].join("\n");
  },
};
