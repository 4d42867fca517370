import type { DemoActivityType } from "./demo-api.ts";
import { SeededRandom } from "./random.ts";

/** The made-up person behind a demo user id: their zone and habits, the same for every call. */
export interface DemoPerson {
  userId: string;
  timezone: string;
  dailySteps: number;
  strideM: number;
  restingBpm: number;
  maxBpm: number;
  hrvMs: number;
  weightKg: number;
  bodyFatPercent: number;
  basalKcal: number;
  /** Minutes after midnight they usually go to bed (may pass 24 h). */
  bedtimeMinutes: number;
  sleepMinutes: number;
  /** Chance of a workout on a given day. */
  workoutChance: number;
  /** The favourite first. */
  activities: readonly [DemoActivityType, DemoActivityType];
  /** 0 Sunday to 6 Saturday. */
  weighInWeekday: number;
}

const ZONES = ["Europe/Berlin", "America/New_York", "Europe/London", "America/Los_Angeles", "Asia/Tokyo", "Australia/Sydney"];
const ACTIVITIES: readonly DemoActivityType[] = ["running", "cycling", "walking", "strength_training", "yoga", "swimming"];

export function demoPerson(userId: string): DemoPerson {
  const random = new SeededRandom(userId, "person");
  const weightKg = round(random.between(58, 92), 1);
  const favourite = random.pick(ACTIVITIES);
  const second = random.pick(ACTIVITIES.filter((activity) => activity !== favourite));
  return {
    userId,
    timezone: random.pick(ZONES),
    dailySteps: random.integer(6000, 11000),
    strideM: round(random.between(0.68, 0.82), 2),
    restingBpm: random.integer(52, 66),
    maxBpm: random.integer(178, 195),
    hrvMs: random.integer(30, 70),
    weightKg,
    bodyFatPercent: round(random.between(14, 30), 1),
    basalKcal: Math.round(600 + weightKg * 15 + random.between(-80, 80)),
    bedtimeMinutes: random.integer(22 * 60 + 15, 23 * 60 + 30),
    sleepMinutes: random.integer(400, 470),
    workoutChance: round(random.between(0.3, 0.55), 2),
    activities: [favourite, second],
    weighInWeekday: random.integer(0, 6),
  };
}

export function round(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}
