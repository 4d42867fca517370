import type { PromptDefinition } from "../prompt-definition.ts";
import { daysBefore, GROUND_RULES, quoted, today, whoseData, ZDatePromptArgument, ZUserIdPromptArgument } from "./prompt-parts.ts";

export const afterEvent: PromptDefinition = {
  name: "after_event",
  title: "After an event",
  description: "How recovery went after an event (event_date, default seven days ago): resting heart rate, HRV, sleep and the return to training.",
  arguments: { user_id: ZUserIdPromptArgument, event_date: ZDatePromptArgument("The event's date (default 7 days ago)") },
  text({ user_id, event_date }) {
    const eventDate = event_date ?? daysBefore(today(), 7);
    const before = daysBefore(eventDate, 14);
    const after = daysBefore(eventDate, -15);
    return [
      `Look at my recovery after the event on ${quoted(eventDate)}.`,
      whoseData(user_id),
      `1. get_workouts from ${eventDate} to ${daysBefore(eventDate, -1)}: the event itself (duration, distance, heart rate).`,
      `2. get_sample_stats from ${before} to ${after}, interval day: resting_heart_rate and hrv_sdnn or hrv_rmssd. The 14 days before are the baseline.`,
      `3. get_sleep and get_workouts from ${eventDate} to ${after}: sleep after the event and when training resumed.`,
      `4. get_tags from ${before} to ${after}.`,
      "How many days did resting heart rate and HRV take to return to baseline? Did training resume before they did? Has recovery finished?",
      GROUND_RULES,
    ].join("\n");
  },
};
