import type { DemoCollection, DemoPage, DemoProfile } from "./demo-api.ts";
import { activityOfDay, bodyOfDay, heartOfDay, sleepEndingOn, workoutsOfDay } from "./demo-days.ts";
import { demoPerson } from "./demo-person.ts";
import { daysOverlapping } from "./zone-time.ts";

/** What GET /demo/api/v1/profile answers for a demo user. */
export function demoProfile(userId: string): DemoProfile {
  return { user_id: userId, timezone: demoPerson(userId).timezone };
}

/**
 * What GET /demo/api/v1/<collection> answers: the items of the person's local days that
 * overlap the window, as far as they are over at `now`. The same user, window and time of
 * day always give the same page.
 */
export function demoPage(collection: DemoCollection, userId: string, window: { start: Date; end: Date }, now: Date): DemoPage<unknown> {
  const person = demoPerson(userId);
  const data: unknown[] = [];
  for (const day of daysOverlapping(window.start, window.end, person.timezone)) {
    switch (collection) {
      case "activity": {
        const item = activityOfDay(person, day, now);
        if (item) data.push(item);
        break;
      }
      case "heart": {
        const item = heartOfDay(person, day, now);
        if (item) data.push(item);
        break;
      }
      case "sleep": {
        const item = sleepEndingOn(person, day, now);
        if (item) data.push(item);
        break;
      }
      case "body":
        data.push(...bodyOfDay(person, day, now));
        break;
      case "workouts":
        data.push(...workoutsOfDay(person, day, now));
        break;
    }
  }
  return { timezone: person.timezone, data };
}
