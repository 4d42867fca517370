// Payload `strava-activities`: one page of GET /athlete/activities (a list of SummaryActivity).

import { emptyParsedRecords, type ParsedRecords } from "@svc/core";
import { readStravaActivity } from "./activity.ts";

/** One workout per activity; the stored route stays (routes come with `strava-activity-streams`). */
export function parseStravaActivities(payload: unknown): ParsedRecords {
  if (!Array.isArray(payload)) throw new Error("strava-activities: the payload is not a list of activities");
  const out = emptyParsedRecords();
  payload.forEach((raw, index) => {
    const activity = readStravaActivity(raw);
    if ("reason" in activity) out.rejected.push({ recordKind: "workout", locator: `activities[${index}]`, reason: activity.reason });
    else out.workouts.push(activity.workout);
  });
  return out;
}
