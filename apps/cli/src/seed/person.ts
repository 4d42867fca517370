// The synthetic person behind the dev seed: one "truth" per user and day (when they slept
// and in which stages, when they walked and ran, their heart rate at any second) that every
// device then measures in its own way, so the sources overlap and mostly agree, as real
// ones do. Everything is a pure function of the user id and the date.

import { clamp, noiseAt, randomFor, seedOf, signedNoiseAt } from "./random.ts";
import { addDays, dayNumber, epochSeconds, isWeekend, localTime, MINUTE, SECOND, weekday } from "./time.ts";

export interface Profile {
  userId: string;
  /** Baseline resting heart rate, count/min. */
  restingHr: number;
  maxHr: number;
  /** Baseline nightly RMSSD, ms. */
  rmssd: number;
  respiratoryRate: number;
  spo2: number;
  weightKg: number;
  bodyFat: number;
  /** Basal metabolic rate, kcal per day. */
  bmrKcal: number;
  /** Walking stride, m. */
  strideM: number;
  /** Habitual bedtime and wake time, minutes after local midnight. */
  bedMinutes: number;
  wakeMinutes: number;
  /** Weekdays (0 = Sunday) with a run. */
  runDays: readonly number[];
  /** Easy running speed, m/s. */
  runSpeed: number;
  /** Weekday of the weekly ECG. */
  ecgWeekday: number;
  /** Shifts the 28-day slots of the menstrual cycle. */
  cycleOffset: number;
}

const RUN_WEEKS: ReadonlyArray<readonly number[]> = [
  [1, 3, 6],
  [2, 4, 0],
  [1, 4, 6],
  [2, 5, 0],
];

export function profileOf(userId: string): Profile {
  const r = randomFor(userId, "profile", "profile");
  const weightKg = r.between(58, 86);
  const restingHr = r.between(50, 62);
  return {
    userId,
    restingHr,
    maxHr: r.between(178, 192),
    rmssd: r.between(32, 62),
    respiratoryRate: r.between(13, 15.5),
    spo2: r.between(95.5, 97.5),
    weightKg,
    bodyFat: r.between(17, 28),
    bmrKcal: 10 * weightKg + 6.25 * r.between(160, 185) - 5 * r.between(28, 45) - 80,
    strideM: r.between(0.68, 0.8),
    bedMinutes: r.between(22.75 * 60, 23.6 * 60),
    wakeMinutes: r.between(6.2 * 60, 6.9 * 60),
    runDays: r.pick(RUN_WEEKS),
    runSpeed: r.between(2.7, 3.25),
    ecgWeekday: r.int(0, 6),
    cycleOffset: r.int(0, 27),
  };
}

/**
 * How rested the person is on a date, about -1.5 … 1.5: slow waves over weeks plus a
 * little day-to-day noise. A better day has a lower resting heart rate and a higher HRV.
 */
export function readiness(profile: Profile, date: string): number {
  const d = dayNumber(date);
  const phase1 = noiseAt(seedOf(profile.userId, "readiness", 1), 0) * 2 * Math.PI;
  const phase2 = noiseAt(seedOf(profile.userId, "readiness", 2), 0) * 2 * Math.PI;
  const daily = signedNoiseAt(seedOf(profile.userId, "readiness", 3), d) * 0.5;
  return 0.6 * Math.sin((2 * Math.PI * d) / 11 + phase1) + 0.4 * Math.sin((2 * Math.PI * d) / 29 + phase2) + daily;
}

export const isRunDay = (profile: Profile, date: string): boolean => profile.runDays.includes(weekday(date));

/** Resting heart rate of a date: the baseline, better on good days, a little up after a run. */
export function restingHrOn(profile: Profile, date: string): number {
  return profile.restingHr - 1.6 * readiness(profile, date) + (isRunDay(profile, addDays(date, -1)) ? 1 : 0);
}

export type Stage = "awake" | "light" | "deep" | "rem";

export interface Phase {
  stage: Stage;
  start: number;
  end: number;
}

/** The night that ends on the morning of `date` (ms instants). */
export interface Night {
  date: string;
  inBed: number;
  asleep: number;
  wake: number;
  outOfBed: number;
  /** Contiguous phases from inBed to outOfBed, the first and last awake. */
  phases: Phase[];
  lowestHr: number;
  averageHr: number;
  rmssd: number;
  respiratoryRate: number;
  spo2: number;
}

const DEEP_BY_CYCLE = [45, 28, 12, 5, 2];
const REM_BY_CYCLE = [8, 17, 24, 30, 35];
const roundTo30s = (ms: number) => Math.round(ms / (30 * SECOND)) * 30 * SECOND;

export function nightOf(profile: Profile, date: string): Night {
  const r = randomFor(profile.userId, date, "night");
  const evening = addDays(date, -1);
  const lateEvening = weekday(evening) === 5 || weekday(evening) === 6;
  const inBed = localTime(evening, profile.bedMinutes + (lateEvening ? 40 : 0) + r.normal(0, 18)).getTime();
  const asleep = roundTo30s(inBed + clamp(r.normal(12, 6), 3, 40) * MINUTE);
  const wake = roundTo30s(localTime(date, profile.wakeMinutes + (isWeekend(date) ? 45 : 0) + r.normal(0, 14)).getTime());
  const outOfBed = wake + Math.round(r.between(2, 12)) * MINUTE;

  const phases: Phase[] = [{ stage: "awake", start: inBed, end: asleep }];
  const push = (stage: Stage, minutes: number) => {
    const start = phases.at(-1)?.end ?? asleep;
    const end = Math.min(wake, roundTo30s(start + Math.max(0, minutes) * MINUTE));
    if (end > start) phases.push({ stage, start, end });
  };
  for (let cycle = 0; (phases.at(-1)?.end ?? wake) < wake; cycle++) {
    const k = Math.min(cycle, DEEP_BY_CYCLE.length - 1);
    const length = r.between(85, 105);
    const deep = Math.max(0, (DEEP_BY_CYCLE[k] ?? 0) + r.normal(0, 5));
    const rem = Math.max(3, (REM_BY_CYCLE[k] ?? 30) + r.normal(0, 4));
    const light = Math.max(10, length - deep - rem);
    push("light", light * 0.6);
    push("deep", deep);
    push("light", light * 0.4);
    push("rem", rem);
    if (r.chance(0.45)) push("awake", r.between(1, 5));
  }
  phases.push({ stage: "awake", start: phases.at(-1)?.end ?? wake, end: outOfBed });

  const rhr = restingHrOn(profile, date);
  const lowestHr = Math.round(rhr - r.between(2, 5));
  return {
    date,
    inBed,
    asleep,
    wake,
    outOfBed,
    phases: phases.filter((p) => p.end > p.start),
    lowestHr,
    averageHr: lowestHr + r.between(4, 8),
    rmssd: profile.rmssd * (1 + 0.12 * readiness(profile, date)) + r.normal(0, 2),
    respiratoryRate: profile.respiratoryRate + r.normal(0, 0.4),
    spo2: profile.spo2 + r.normal(0, 0.4),
  };
}

/** The stage at an instant of a night; null outside it. */
export function stageAt(night: Night, t: number): Stage | null {
  if (t < night.inBed || t >= night.outOfBed) return null;
  for (const phase of night.phases) if (t >= phase.start && t < phase.end) return phase.stage;
  return null;
}

export interface Activity {
  kind: "walk" | "run";
  start: number;
  end: number;
  /** Steps per minute. */
  cadence: number;
  /** m per step. */
  stride: number;
  /** Heart rate reached above the awake baseline, count/min. */
  hrBoost: number;
  /** Whether the phone is in a pocket (it stays home on runs). */
  phoneCarried: boolean;
}

export interface Run extends Activity {
  kind: "run";
  /** m/s. */
  speed: number;
  /** Heart rate the run settles at before drifting up, count/min. */
  targetHr: number;
}

/** A local day: the night before, the waking hours, and what the person does in them. */
export interface DayPlan {
  date: string;
  profile: Profile;
  night: Night;
  nextNight: Night;
  restingHr: number;
  activities: Activity[];
  run: Run | null;
  /** Local midnight that starts the date, ms. */
  localMidnight: number;
  /** Seed of noise addressed by time. */
  seed: number;
}

export function planDay(profile: Profile, date: string): DayPlan {
  const r = randomFor(profile.userId, date, "activities");
  const night = nightOf(profile, date);
  const nextNight = nightOf(profile, addDays(date, 1));
  const restingHr = restingHrOn(profile, date);
  const activities: Activity[] = [];
  const at = (minutes: number) => localTime(date, minutes).getTime();
  const add = (activity: Activity) => {
    const fits = activity.start >= night.outOfBed + 10 * MINUTE && activity.end <= nextNight.inBed - 10 * MINUTE;
    const free = activities.every((a) => activity.end + 5 * MINUTE <= a.start || activity.start >= a.end + 5 * MINUTE);
    if (fits && free) activities.push(activity);
  };
  const walk = (startMinutes: number, minutes: number, cadence: number, phoneCarried = r.chance(0.9)): Activity => {
    const start = at(startMinutes);
    return {
      kind: "walk",
      start,
      end: start + Math.round(minutes) * MINUTE,
      cadence,
      stride: profile.strideM * (0.95 + (cadence - 100) / 400),
      hrBoost: 14 + (cadence - 90) * 0.6 + r.between(0, 6),
      phoneCarried,
    };
  };

  let run: Run | null = null;
  if (isRunDay(profile, date)) {
    const startMinutes = isWeekend(date) ? r.between(8.75 * 60, 10.5 * 60) : r.between(18.9 * 60, 19.6 * 60);
    const distance = isWeekend(date) ? r.between(9000, 14000) : r.between(5000, 9000);
    const speed = profile.runSpeed * (isWeekend(date) ? 0.95 : 1) * (1 + 0.03 * readiness(profile, date));
    const start = at(startMinutes);
    const cadence = r.between(162, 176);
    run = {
      kind: "run",
      start,
      end: start + Math.round(distance / speed) * SECOND,
      cadence,
      stride: (speed * 60) / cadence,
      hrBoost: 0,
      phoneCarried: false,
      speed,
      targetHr: profile.maxHr * r.between(0.74, 0.8),
    };
    activities.push(run);
  }
  if (isWeekend(date)) {
    add(walk(r.between(13 * 60, 15 * 60), r.between(40, 100), r.between(95, 110)));
    add(walk(r.between(10.5 * 60, 12 * 60), r.between(15, 40), r.between(85, 100)));
    if (r.chance(0.6)) add(walk(r.between(17 * 60, 19.5 * 60), r.between(15, 35), r.between(85, 100)));
  } else {
    const leave = (night.outOfBed - at(0)) / MINUTE + r.between(45, 70);
    add(walk(leave, r.between(12, 20), r.between(105, 116)));
    if (r.chance(0.7)) add(walk(r.between(12.25 * 60, 13 * 60), r.between(10, 25), r.between(95, 110)));
    add(walk(r.between(17 * 60, 18.4 * 60), r.between(12, 20), r.between(105, 116)));
    if (r.chance(0.4)) add(walk(r.between(19 * 60, 20.5 * 60), r.between(10, 30), r.between(80, 100)));
  }
  activities.sort((a, b) => a.start - b.start);
  return { date, profile, night, nextNight, restingHr, activities, run, localMidnight: at(0), seed: seedOf(profile.userId, date, "day") };
}

/** Whether the person is up (out of bed) at an instant of the plan's day. */
export const isAwake = (plan: DayPlan, t: number): boolean => t >= plan.night.outOfBed && t < plan.nextNight.inBed;

const TAU_UP = 70 * SECOND;
const TAU_DOWN = 150 * SECOND;

/** How far an activity lifts the heart rate at t, with a rise at the start and a recovery after. */
function activityLift(plan: DayPlan, a: Activity, t: number, awakeBase: number): number {
  if (t < a.start) return 0;
  const peak = (until: number) => {
    if (a.kind === "walk") return a.hrBoost;
    const run = a as Run;
    const drift = (10 * (until - a.start)) / (a.end - a.start);
    return run.targetHr + drift - awakeBase;
  };
  const rise = (until: number) => peak(until) * (1 - Math.exp(-(until - a.start) / TAU_UP));
  if (t < a.end) return rise(t);
  return rise(a.end) * Math.exp(-(t - a.end) / TAU_DOWN);
}

/**
 * The "true" heart rate at an instant (count/min, unrounded): asleep it follows the stage,
 * awake a daytime baseline with a circadian swing, activities on top, and a slow wander.
 * Devices add their own jitter.
 */
export function trueHeartRate(plan: DayPlan, t: number): number {
  const s = epochSeconds(t);
  const wander =
    3 * Math.sin((2 * Math.PI * s) / 420 + (plan.seed % 7)) +
    2 * Math.sin((2 * Math.PI * s) / 1380 + (plan.seed % 11)) +
    3 * Math.sin((2 * Math.PI * s) / 5820 + (plan.seed % 13));
  for (const night of [plan.night, plan.nextNight]) {
    const stage = stageAt(night, t);
    if (stage === null) continue;
    const byStage = { deep: night.lowestHr + 1.5, light: night.lowestHr + 4.5, rem: night.lowestHr + 9, awake: night.averageHr + 9 };
    return byStage[stage] + 0.4 * wander;
  }
  const localHour = ((t - plan.localMidnight) / 3_600_000) % 24;
  const circadian = 4 * Math.sin((2 * Math.PI * (localHour - 9)) / 24);
  const awakeBase = plan.restingHr + 16 + circadian;
  let lift = 0;
  for (const a of plan.activities) lift = Math.max(lift, activityLift(plan, a, t, awakeBase));
  return clamp(awakeBase + lift + wander, 38, plan.profile.maxHr);
}

/** One 10-minute interval of the waking day as each device counts it. */
export interface ActivityInterval {
  start: number;
  end: number;
  /** What the person really did. */
  steps: number;
  distance: number;
  /** Part of it on a run (counted in steps and distance too). */
  runDistance: number;
  watchSteps: number;
  watchDistance: number;
  phoneSteps: number;
  phoneDistance: number;
  /** Active energy (watch), kcal. */
  activeKcal: number;
}

const INTERVAL = 10 * MINUTE;

/** Ambient steps per minute outside walks: more at home in the morning and evening than at a desk. */
function ambientCadence(plan: DayPlan, t: number): number {
  const hour = ((t - plan.localMidnight) / 3_600_000) % 24;
  if (isWeekend(plan.date)) return 4;
  if (hour < 8.5 || hour >= 18) return 4.5;
  return 2;
}

/** The waking day in 10-minute intervals on the clock, clipped to out-of-bed and bedtime. */
export function activityIntervals(plan: DayPlan): ActivityInterval[] {
  const from = plan.night.outOfBed;
  const until = plan.nextNight.inBed;
  const intervals: ActivityInterval[] = [];
  const weight = plan.profile.weightKg;
  for (let slot = Math.floor(from / INTERVAL) * INTERVAL; slot < until; slot += INTERVAL) {
    const start = Math.max(slot, from);
    const end = Math.min(slot + INTERVAL, until);
    if (end <= start) continue;
    const index = slot / INTERVAL;
    const n = (salt: number) => noiseAt(plan.seed ^ salt, index);
    let steps = 0;
    let distance = 0;
    let runDistance = 0;
    let phoneSteps = 0;
    let phoneDistance = 0;
    let busy = 0;
    for (const a of plan.activities) {
      const overlap = Math.min(end, a.end) - Math.max(start, a.start);
      if (overlap <= 0) continue;
      busy += overlap;
      const s = (overlap / MINUTE) * a.cadence * (0.96 + 0.08 * n(0x11));
      steps += s;
      distance += s * a.stride;
      if (a.kind === "run") runDistance += s * a.stride;
      if (a.phoneCarried) {
        phoneSteps += s * (0.93 + 0.05 * n(0x12));
        phoneDistance += s * a.stride * (0.9 + 0.08 * n(0x13));
      }
    }
    const idle = (end - start - busy) / MINUTE;
    const ambient = n(0x14) < 0.15 ? 0 : idle * ambientCadence(plan, start) * (0.2 + 1.6 * n(0x15));
    steps += ambient;
    distance += ambient * plan.profile.strideM * 0.85;
    if (n(0x16) < 0.55) {
      // The phone is in a pocket rather than on a desk; it misses the shortest bouts.
      phoneSteps += Math.max(0, ambient - 6) * 0.9;
      phoneDistance += Math.max(0, ambient - 6) * plan.profile.strideM * 0.8;
    }
    const watchFactor = 0.98 + 0.06 * n(0x17);
    const walkingKcal = (steps - runDistance / (plan.run?.stride ?? 1)) * weight * 0.00048;
    const runningKcal = (runDistance / 1000) * weight * 1.02;
    const fidgetKcal = ((end - start) / INTERVAL) * (0.6 + 1.2 * n(0x18));
    intervals.push({
      start,
      end,
      steps,
      distance,
      runDistance,
      watchSteps: Math.round(steps * watchFactor),
      watchDistance: distance * watchFactor,
      phoneSteps: Math.round(phoneSteps),
      phoneDistance,
      activeKcal: Math.max(0, walkingKcal) + runningKcal + fidgetKcal,
    });
  }
  return intervals;
}

/** The local day of the menstrual cycle's period, 0-4, or null: 28-day slots with a few days' jitter. */
export function periodDay(profile: Profile, date: string): number | null {
  const d = dayNumber(date) + profile.cycleOffset;
  for (const slot of [Math.floor(d / 28), Math.floor(d / 28) - 1]) {
    const jitter = randomFor(profile.userId, `cycle-${slot}`, "cycle").int(0, 3);
    const day = d - (slot * 28 + jitter);
    if (day >= 0 && day < 5) return day;
  }
  return null;
}
