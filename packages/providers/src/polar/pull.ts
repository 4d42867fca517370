import { ProviderError, type PullContext } from "@svc/core";
import { POLAR_ACTIVITIES_FORMAT } from "./activities.ts";
import { accessLinkUrl, requestOrNull } from "./api.ts";
import { POLAR_CONTINUOUS_HEART_RATE_FORMAT, type PolarContinuousHeartRateDay } from "./continuous-heart-rate.ts";
import { exerciseStart, POLAR_EXERCISES_FORMAT } from "./exercises.ts";
import { POLAR_NIGHTS_FORMAT, type PolarNight } from "./nights.ts";
import { isCalendarDay, isObject, zonedDateTime } from "./values.ts";

/** The data types a pull (and a webhook event) can name. */
export const POLAR_DATA_TYPES = ["exercise", "sleep", "continuous_heart_rate", "activity"] as const;
export type PolarDataType = (typeof POLAR_DATA_TYPES)[number];

/** Up to this many dates, nights are asked date by date; beyond, the 28-night lists are cheaper. */
const DATES_ASKED_ONE_BY_ONE = 7;
/** List activities takes at most 28 days from `from` to `to`. */
const ACTIVITY_RANGE_DATES = 28;
const DAY_MS = 86_400_000;

/**
 * Pulls the window from AccessLink (the non-transactional endpoints, which can be read again):
 * exercises (the last 30 days' list, kept when they start in the window), nights (sleep and
 * Nightly Recharge by date, or their 28-day lists for long windows), daily activity (28-day
 * ranges) and continuous heart rate (by date, with the user's UTC offsets from their sleep
 * times). Polar's data is dated by the device's local date: a window asks every date it can
 * touch in any zone.
 */
export async function pullPolar(context: PullContext): Promise<void> {
  const types = dataTypesOf(context.dataType);
  const dates = datesOf(context.window);
  if (types.includes("exercise")) await pullExercises(context);
  if (types.includes("sleep")) await pullNights(context, dates);
  if (types.includes("activity")) await pullActivities(context, dates);
  if (types.includes("continuous_heart_rate")) await pullContinuousHeartRate(context, dates);
}

function dataTypesOf(dataType: string | null): readonly PolarDataType[] {
  if (dataType === null) return POLAR_DATA_TYPES;
  if (!(POLAR_DATA_TYPES as readonly string[]).includes(dataType)) throw new ProviderError("failed", `${dataType} is not a Polar data type.`);
  return [dataType as PolarDataType];
}

async function pullExercises(context: PullContext): Promise<void> {
  const answer = await requestOrNull(context, accessLinkUrl(context.urls.api, "/v3/exercises", { route: "true" }));
  if (answer === null) return;
  if (!Array.isArray(answer)) throw new ProviderError("failed", "Polar's exercise list is not a list.");
  const { start, end } = context.window;
  // An exercise whose start cannot be read is kept: its parser says why it is rejected.
  const inWindow = answer.filter((exercise) => {
    const at = exerciseStart(exercise);
    return at === null || (at >= start && at < end);
  });
  if (inWindow.length > 0) await context.store(POLAR_EXERCISES_FORMAT, inWindow);
}

async function pullNights(context: PullContext, dates: readonly string[]): Promise<void> {
  const api = context.urls.api;
  if (dates.length <= DATES_ASKED_ONE_BY_ONE) {
    for (const date of dates) {
      const sleep = await requestOrNull(context, accessLinkUrl(api, `/v3/users/sleep/${date}`));
      const recharge = await requestOrNull(context, accessLinkUrl(api, `/v3/users/nightly-recharge/${date}`));
      if (isObject(sleep) || isObject(recharge)) await context.store(POLAR_NIGHTS_FORMAT, nightOf(date, sleep, recharge));
    }
    return;
  }
  const sleeps = byDate(await requestOrNull(context, accessLinkUrl(api, "/v3/users/sleep")), "nights");
  const recharges = byDate(await requestOrNull(context, accessLinkUrl(api, "/v3/users/nightly-recharge")), "recharges");
  for (const date of dates) {
    const sleep = sleeps.get(date) ?? null;
    const recharge = recharges.get(date) ?? null;
    if (sleep || recharge) await context.store(POLAR_NIGHTS_FORMAT, nightOf(date, sleep, recharge));
  }
}

const nightOf = (date: string, sleep: unknown, recharge: unknown): PolarNight => ({
  date,
  sleep: isObject(sleep) ? sleep : null,
  nightly_recharge: isObject(recharge) ? recharge : null,
});

/** The items of a Polar list answer (`{nights: [...]}`), by their `date`. */
function byDate(answer: unknown, listName: string): Map<string, unknown> {
  const items = isObject(answer) && Array.isArray(answer[listName]) ? (answer[listName] as unknown[]) : [];
  const map = new Map<string, unknown>();
  for (const item of items) if (isObject(item) && isCalendarDay(item.date)) map.set(item.date, item);
  return map;
}

async function pullActivities(context: PullContext, dates: readonly string[]): Promise<void> {
  for (let i = 0; i < dates.length; i += ACTIVITY_RANGE_DATES) {
    const range = dates.slice(i, i + ACTIVITY_RANGE_DATES);
    const query = { from: range[0] as string, to: range[range.length - 1] as string };
    const answer = await requestOrNull(context, accessLinkUrl(context.urls.api, "/v3/users/activities", query));
    const days = Array.isArray(answer) ? answer : isObject(answer) && Array.isArray(answer.activities) ? answer.activities : [];
    if (days.length > 0) await context.store(POLAR_ACTIVITIES_FORMAT, answer);
  }
}

async function pullContinuousHeartRate(context: PullContext, dates: readonly string[]): Promise<void> {
  const api = context.urls.api;
  const offsets = offsetsByDate(await requestOrNull(context, accessLinkUrl(api, "/v3/users/sleep/available")));
  for (const date of dates) {
    const answer = await requestOrNull(context, accessLinkUrl(api, `/v3/users/continuous-heart-rate/${date}`));
    if (!isObject(answer) || !Array.isArray(answer.heart_rate_samples) || answer.heart_rate_samples.length === 0) continue;
    const day: PolarContinuousHeartRateDay = { utc_offset_minutes: nearestOffset(offsets, date), continuous_heart_rate: answer };
    await context.store(POLAR_CONTINUOUS_HEART_RATE_FORMAT, day);
  }
}

/** The device's UTC offset by date, from the wake-up times of Get available sleep times. */
function offsetsByDate(answer: unknown): Map<string, number> {
  const offsets = new Map<string, number>();
  const available = isObject(answer) && Array.isArray(answer.available) ? answer.available : [];
  for (const sleep of available) {
    if (!isObject(sleep) || !isCalendarDay(sleep.date)) continue;
    const end = zonedDateTime(sleep.end_time) ?? zonedDateTime(sleep.start_time);
    if (end) offsets.set(sleep.date, end.offsetMinutes);
  }
  return offsets;
}

/** The offset of the date, else of the nearest date known (people rarely change zones); null when none is known. */
function nearestOffset(offsets: ReadonlyMap<string, number>, date: string): number | null {
  const day = Date.parse(`${date}T00:00:00Z`);
  let best: { distance: number; offset: number } | null = null;
  for (const [known, offset] of offsets) {
    const distance = Math.abs(Date.parse(`${known}T00:00:00Z`) - day);
    if (!best || distance < best.distance) best = { distance, offset };
  }
  return best?.offset ?? null;
}

/**
 * The device dates a window can touch in any zone (UTC-12 to UTC+14): from the day before
 * its first UTC date to the day after its last, never after tomorrow (no data yet).
 */
function datesOf(window: { start: Date; end: Date }): string[] {
  const first = Date.parse(`${utcDate(window.start.getTime() - DAY_MS)}T00:00:00Z`);
  const lastInstant = Math.max(window.start.getTime(), window.end.getTime() - 1);
  const last = Math.min(Date.parse(`${utcDate(lastInstant + DAY_MS)}T00:00:00Z`), Date.parse(`${utcDate(Date.now() + DAY_MS)}T00:00:00Z`));
  const dates: string[] = [];
  for (let day = first; day <= last; day += DAY_MS) dates.push(utcDate(day));
  return dates;
}

const utcDate = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
