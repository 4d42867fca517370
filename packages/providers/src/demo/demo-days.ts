import type {
  DemoActivityDay,
  DemoActivityInterval,
  DemoActivityType,
  DemoBodyMeasurement,
  DemoHeartDay,
  DemoSleepSession,
  DemoSleepStage,
  DemoWorkout,
} from "./demo-api.ts";
import { round, type DemoPerson } from "./demo-person.ts";
import { SeededRandom } from "./random.ts";
import { addDays, isoWithOffset, zonedInstant } from "./zone-time.ts";

// The demo person's data of one local day, from a generator seeded by their id and the day:
// the same on every call. Items that are not over at `now` are left out (a day still running
// shows its hours so far).

const MINUTE = 60_000;

/** Relative step weights of the local hours 06:00 to 22:00 (commute, lunch, evening). */
const HOUR_WEIGHTS: ReadonlyArray<readonly [hour: number, weight: number]> = [
  [6, 2], [7, 6], [8, 9], [9, 5], [10, 4], [11, 5], [12, 9], [13, 7], [14, 4],
  [15, 4], [16, 5], [17, 8], [18, 9], [19, 6], [20, 4], [21, 3], [22, 1],
];

interface WorkoutSpec {
  minutes: [number, number];
  /** Metres per second of moving time; null without distance. */
  speed: [number, number] | null;
  /** Heart rate above resting. */
  effort: [number, number];
  kcalPerMinute: number;
  stepsPerMinute: number | null;
  climbPerKm: number | null;
  label: string;
}

const WORKOUTS: Readonly<Record<DemoActivityType, WorkoutSpec>> = {
  running: { minutes: [25, 60], speed: [2.6, 3.4], effort: [85, 105], kcalPerMinute: 11, stepsPerMinute: 165, climbPerKm: 8, label: "run" },
  cycling: { minutes: [40, 100], speed: [6, 8], effort: [65, 90], kcalPerMinute: 9, stepsPerMinute: null, climbPerKm: 6, label: "ride" },
  walking: { minutes: [30, 75], speed: [1.3, 1.5], effort: [30, 45], kcalPerMinute: 4.5, stepsPerMinute: 110, climbPerKm: 5, label: "walk" },
  strength_training: { minutes: [35, 60], speed: null, effort: [45, 65], kcalPerMinute: 6, stepsPerMinute: null, climbPerKm: null, label: "strength session" },
  yoga: { minutes: [30, 60], speed: null, effort: [18, 32], kcalPerMinute: 3, stepsPerMinute: null, climbPerKm: null, label: "yoga" },
  swimming: { minutes: [30, 50], speed: [0.6, 0.8], effort: [55, 75], kcalPerMinute: 9, stepsPerMinute: null, climbPerKm: null, label: "swim" },
};

interface PlannedWorkout {
  id: string;
  activity: DemoActivityType;
  name: string;
  start: Date;
  end: Date;
  distanceM: number | null;
  activeKcal: number;
  averageBpm: number;
  maxBpm: number;
  steps: number | null;
  elevationGainM: number | null;
}

interface PlannedHour {
  start: Date;
  end: Date;
  steps: number;
  distanceM: number;
  activeKcal: number;
  activeMinutes: number;
}

/** 0 Sunday to 6 Saturday. */
function weekday(day: string): number {
  return new Date(`${day}T00:00:00Z`).getUTCDay();
}

function overlapMinutes(start: Date, end: Date, otherStart: Date, otherEnd: Date): number {
  const from = Math.max(start.getTime(), otherStart.getTime());
  const to = Math.min(end.getTime(), otherEnd.getTime());
  return Math.max(0, (to - from) / MINUTE);
}

function planWorkouts(person: DemoPerson, day: string): PlannedWorkout[] {
  const random = new SeededRandom(person.userId, day, "workouts");
  if (!random.chance(person.workoutChance)) return [];
  const activity = random.chance(0.7) ? person.activities[0] : person.activities[1];
  const spec = WORKOUTS[activity];
  const morning = random.chance(0.4);
  const startMinutes = morning ? random.integer(6 * 60 + 30, 8 * 60) : random.integer(17 * 60 + 30, 19 * 60 + 30);
  const minutes = random.integer(spec.minutes[0], spec.minutes[1]);
  const start = zonedInstant(day, startMinutes, person.timezone);
  const distanceM = spec.speed ? Math.round(minutes * 60 * random.between(spec.speed[0], spec.speed[1])) : null;
  const averageBpm = Math.min(person.maxBpm - 15, person.restingBpm + random.integer(spec.effort[0], spec.effort[1]));
  return [
    {
      id: `workout-${day}-1`,
      activity,
      name: `${morning ? "Morning" : "Evening"} ${spec.label}`,
      start,
      end: new Date(start.getTime() + minutes * MINUTE),
      distanceM,
      activeKcal: round(minutes * spec.kcalPerMinute * (person.weightKg / 70) * random.between(0.85, 1.15), 1),
      averageBpm,
      maxBpm: Math.min(person.maxBpm, averageBpm + random.integer(12, 25)),
      steps: spec.stepsPerMinute ? Math.round(minutes * spec.stepsPerMinute * random.between(0.92, 1.05)) : null,
      elevationGainM: spec.climbPerKm && distanceM ? Math.round((distanceM / 1000) * spec.climbPerKm * random.between(0.5, 1.8)) : null,
    },
  ];
}

function planHours(person: DemoPerson, day: string, workouts: readonly PlannedWorkout[]): PlannedHour[] {
  const random = new SeededRandom(person.userId, day, "activity");
  const weekendFactor = [0, 6].includes(weekday(day)) ? 0.88 : 1;
  const target = person.dailySteps * weekendFactor * random.around(1, 0.12);
  const totalWeight = HOUR_WEIGHTS.reduce((sum, [, weight]) => sum + weight, 0);
  return HOUR_WEIGHTS.map(([hour, weight]) => {
    const start = zonedInstant(day, hour * 60, person.timezone);
    const end = zonedInstant(day, (hour + 1) * 60, person.timezone);
    const baseSteps = Math.round(((target * weight) / totalWeight) * random.between(0.7, 1.3));
    let steps = baseSteps;
    let distanceM = baseSteps * person.strideM;
    let activeKcal = baseSteps * 0.045 * (person.weightKg / 70);
    let activeMinutes = Math.round(baseSteps / 160);
    for (const workout of workouts) {
      const share = overlapMinutes(start, end, workout.start, workout.end) / ((workout.end.getTime() - workout.start.getTime()) / MINUTE);
      if (share === 0) continue;
      steps += Math.round((workout.steps ?? 0) * share);
      if (workout.activity === "running" || workout.activity === "walking") distanceM += (workout.distanceM ?? 0) * share;
      activeKcal += workout.activeKcal * share;
      activeMinutes += Math.round(overlapMinutes(start, end, workout.start, workout.end));
    }
    return { start, end, steps, distanceM: Math.round(distanceM), activeKcal: round(activeKcal, 1), activeMinutes: Math.min(60, activeMinutes) };
  });
}

function restingBpm(person: DemoPerson, day: string): number {
  return person.restingBpm + Math.round(new SeededRandom(person.userId, day, "resting").around(0, 2));
}

/** The day's activity so far: its hours that are over, and their totals; null before the first is over. */
export function activityOfDay(person: DemoPerson, day: string, now: Date): DemoActivityDay | null {
  const hours = planHours(person, day, planWorkouts(person, day)).filter((hour) => hour.end <= now);
  if (hours.length === 0) return null;
  const zone = person.timezone;
  const intervals: DemoActivityInterval[] = hours.map((hour) => ({
    id: `activity-${day}-${isoWithOffset(hour.start, zone).slice(11, 13)}`,
    start: isoWithOffset(hour.start, zone),
    end: isoWithOffset(hour.end, zone),
    steps: hour.steps,
    distance_m: hour.distanceM,
    active_kcal: hour.activeKcal,
  }));
  const dayStart = zonedInstant(day, 0, zone);
  const dayEnd = zonedInstant(addDays(day, 1), 0, zone);
  const over = Math.min(1, Math.max(0, (now.getTime() - dayStart.getTime()) / (dayEnd.getTime() - dayStart.getTime())));
  const activeKcal = round(hours.reduce((sum, hour) => sum + hour.activeKcal, 0), 1);
  return {
    id: `activity-${day}`,
    day,
    steps: hours.reduce((sum, hour) => sum + hour.steps, 0),
    distance_m: hours.reduce((sum, hour) => sum + hour.distanceM, 0),
    active_kcal: activeKcal,
    total_kcal: round(person.basalKcal * over + activeKcal, 1),
    active_minutes: hours.reduce((sum, hour) => sum + hour.activeMinutes, 0),
    resting_bpm: restingBpm(person, day),
    intervals,
  };
}

/** The day's heart rate: every 5 minutes from 07:00 to 22:55 local (higher while active), and the resting rate at 04:00. */
export function heartOfDay(person: DemoPerson, day: string, now: Date): DemoHeartDay | null {
  const random = new SeededRandom(person.userId, day, "heart");
  const zone = person.timezone;
  const workouts = planWorkouts(person, day);
  const hours = planHours(person, day, workouts);
  const restingAt = zonedInstant(day, 4 * 60, zone);
  const samples: DemoHeartDay["samples"] = [];
  for (let minutes = 7 * 60; minutes < 23 * 60; minutes += 5) {
    const time = zonedInstant(day, minutes, zone);
    const noise = random.around(0, 3);
    if (time >= now) continue;
    const workout = workouts.find((w) => time >= w.start && time < w.end);
    let bpm: number;
    if (workout) {
      const warmup = Math.min(1, (time.getTime() - workout.start.getTime()) / (8 * MINUTE));
      bpm = Math.min(workout.maxBpm, person.restingBpm + (workout.averageBpm - person.restingBpm) * warmup + noise * 2);
    } else {
      const hourSteps = hours.find((hour) => time >= hour.start && time < hour.end)?.steps ?? 0;
      bpm = person.restingBpm + 14 + hourSteps / 45 + noise;
    }
    samples.push({ time: isoWithOffset(time, zone), bpm: Math.round(bpm) });
  }
  const resting = restingAt < now ? { time: isoWithOffset(restingAt, zone), bpm: restingBpm(person, day) } : null;
  if (!resting && samples.length === 0) return null;
  return { id: `heart-${day}`, day, resting, samples };
}

/** The night that ends on this local day (from the evening before), once it is over. */
export function sleepEndingOn(person: DemoPerson, day: string, now: Date): DemoSleepSession | null {
  const random = new SeededRandom(person.userId, day, "sleep");
  const zone = person.timezone;
  const weekendNight = [5, 6].includes(weekday(addDays(day, -1)));
  const bedMinutes = Math.round(person.bedtimeMinutes + (weekendNight ? 35 : 0) + random.around(0, 20));
  const inBedMinutes = Math.round(person.sleepMinutes + (weekendNight ? 30 : 0) + random.around(10, 25));
  const start = zonedInstant(addDays(day, -1), bedMinutes, zone);
  const end = new Date(start.getTime() + inBedMinutes * MINUTE);
  if (end > now) return null;

  // Minutes since bedtime: a few awake to fall asleep, ~90-minute cycles (deep early, REM late), awake at the end.
  const segments: Array<{ stage: DemoSleepStage; minutes: number }> = [{ stage: "awake", minutes: random.integer(6, 25) }];
  const finalAwake = random.integer(2, 7);
  let used = segments[0]!.minutes;
  for (let cycle = 0; used < inBedMinutes - finalAwake; cycle++) {
    const length = random.integer(80, 110);
    const deep = Math.max(0.04, 0.32 - 0.07 * cycle);
    const rem = Math.min(0.38, 0.12 + 0.06 * cycle);
    const light = 1 - deep - rem;
    const plan: Array<{ stage: DemoSleepStage; minutes: number }> = [
      { stage: "light", minutes: Math.max(1, Math.round(length * light * 0.55)) },
      { stage: "deep", minutes: Math.max(1, Math.round(length * deep)) },
      { stage: "light", minutes: Math.max(1, Math.round(length * light * 0.45)) },
      { stage: "rem", minutes: Math.max(1, Math.round(length * rem)) },
    ];
    if (random.chance(0.5)) plan.push({ stage: "awake", minutes: random.integer(2, 9) });
    for (const segment of plan) {
      const minutes = Math.min(segment.minutes, inBedMinutes - finalAwake - used);
      if (minutes <= 0) break;
      segments.push({ stage: segment.stage, minutes });
      used += minutes;
    }
  }
  segments.push({ stage: "awake", minutes: inBedMinutes - used });

  const phases: DemoSleepSession["phases"] = [];
  let offset = 0;
  for (const segment of segments) {
    const from = new Date(start.getTime() + offset * MINUTE);
    offset += segment.minutes;
    const to = new Date(start.getTime() + offset * MINUTE);
    const previous = phases.at(-1);
    if (previous && previous.stage === segment.stage) previous.end = isoWithOffset(to, zone);
    else phases.push({ stage: segment.stage, start: isoWithOffset(from, zone), end: isoWithOffset(to, zone) });
  }
  const asleepMinutes = segments.filter((segment) => segment.stage !== "awake").reduce((sum, segment) => sum + segment.minutes, 0);
  const efficiency = round(asleepMinutes / inBedMinutes, 2);
  const resting = restingBpm(person, day);
  return {
    id: `sleep-${day}`,
    day,
    bedtime_start: isoWithOffset(start, zone),
    bedtime_end: isoWithOffset(end, zone),
    score: Math.max(0, Math.min(99, Math.round(30 + (asleepMinutes / 60) * 6 + (efficiency - 0.85) * 100 + random.around(0, 3)))),
    efficiency,
    average_bpm: resting + random.integer(3, 6),
    lowest_bpm: resting - random.integer(2, 4),
    average_hrv_ms: Math.max(10, Math.round(person.hrvMs + random.around(0, 6))),
    respiratory_rate: round(random.between(12.5, 15.5), 1),
    spo2_percent: round(random.between(94.5, 98), 1),
    phases,
  };
}

/** A weigh-in on the person's weekday, and sometimes a second one three days later, at about 07:10. */
export function bodyOfDay(person: DemoPerson, day: string, now: Date): DemoBodyMeasurement[] {
  const random = new SeededRandom(person.userId, day, "body");
  const dayOfWeek = weekday(day);
  const weighs = dayOfWeek === person.weighInWeekday || (dayOfWeek === (person.weighInWeekday + 3) % 7 && random.chance(0.5));
  if (!weighs) return [];
  const time = zonedInstant(day, 7 * 60 + 10 + Math.round(random.around(0, 8)), person.timezone);
  if (time >= now) return [];
  // A slow two-month swing around the person's weight, and day-to-day noise.
  const swing = Math.sin((2 * Math.PI * (Date.parse(`${day}T00:00:00Z`) / 86_400_000)) / 60);
  return [
    {
      id: `body-${day}`,
      day,
      time: isoWithOffset(time, person.timezone),
      weight_kg: round(person.weightKg + 0.8 * swing + random.around(0, 0.25), 1),
      body_fat_percent: round(person.bodyFatPercent + 0.5 * swing + random.around(0, 0.25), 1),
    },
  ];
}

/** The day's workouts that are over. */
export function workoutsOfDay(person: DemoPerson, day: string, now: Date): DemoWorkout[] {
  const zone = person.timezone;
  return planWorkouts(person, day)
    .filter((workout) => workout.end <= now)
    .map((workout) => ({
      id: workout.id,
      day,
      activity: workout.activity,
      name: workout.name,
      start: isoWithOffset(workout.start, zone),
      end: isoWithOffset(workout.end, zone),
      distance_m: workout.distanceM,
      active_kcal: workout.activeKcal,
      average_bpm: workout.averageBpm,
      max_bpm: workout.maxBpm,
      steps: workout.steps,
      elevation_gain_m: workout.elevationGainM,
    }));
}
