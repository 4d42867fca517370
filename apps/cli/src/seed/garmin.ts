// Garmin (provider `garmin`, source `garmin`): a Forerunner worn all day. Heart rate every
// minute, a daily summary and resting heart rate, and runs with a GPS track around the
// Tiergarten in Berlin.

import type { DailySummaryRecord, QuantitySampleRecord, RoutePointRecord, WorkoutRecord } from "@svc/core";
import { activityIntervals, trueHeartRate, type DayPlan, type Run } from "./person.ts";
import { noiseAt, randomFor, round, seedOf, signedNoiseAt, stableNumericId } from "./random.ts";
import type { ProviderDay } from "./records.ts";
import { addDays, DAY, epochSeconds, localTime, midnightUtc, MINUTE, SECOND, ZONE } from "./time.ts";

export const GARMIN_PROVIDER = "garmin";

const FORERUNNER = { source: "garmin", device: "Forerunner 265", on_body: true, source_name: "Forerunner 265" } as const;

export function garminDay(plan: DayPlan): ProviderDay {
  const { date, profile } = plan;
  const r = randomFor(profile.userId, date, "garmin");
  const hrSeed = seedOf(profile.userId, "garmin-hr");
  const heartRateAt = (t: number) => Math.round(trueHeartRate(plan, t) + 2.5 * signedNoiseAt(hrSeed, epochSeconds(t)));
  const quantity: QuantitySampleRecord[] = [];
  const sample = (type: string, value: number, start: number, end = start): QuantitySampleRecord => ({
    ...FORERUNNER,
    type,
    value,
    start_date: new Date(start),
    end_date: new Date(end),
    timezone: ZONE,
  });

  const dayStart = midnightUtc(date);
  let heartRateSum = 0;
  let heartRateCount = 0;
  for (let t = dayStart; t < dayStart + DAY; t += MINUTE) {
    const value = heartRateAt(t);
    heartRateSum += value;
    heartRateCount++;
    quantity.push(sample("heart_rate", value, t));
  }

  const restingHr = Math.round(plan.restingHr + r.normal(0, 1));
  const midnight = localTime(date, 0).getTime();
  const nextMidnight = localTime(addDays(date, 1), 0).getTime();
  quantity.push(sample("resting_heart_rate", restingHr, midnight, nextMidnight));

  // Garmin counts its own steps from the wrist: close to the truth, not equal to Apple's.
  const intervals = activityIntervals(plan);
  const factor = 0.97 + 0.05 * r.next();
  const steps = intervals.reduce((sum, i) => sum + i.steps, 0) * factor;
  const distance = intervals.reduce((sum, i) => sum + i.distance, 0) * factor;
  const activeKcal = intervals.reduce((sum, i) => sum + i.activeKcal, 0) * (1 + 0.08 * r.next());
  const activeSeconds = plan.activities.reduce((sum, a) => sum + (a.end - a.start) / SECOND, 0) + r.between(1800, 3600);
  const daily: DailySummaryRecord = {
    ...FORERUNNER,
    date,
    timezone: ZONE,
    steps: Math.round(steps),
    distance_meters: Math.round(distance),
    active_energy_kcal: Math.round(activeKcal),
    total_energy_kcal: Math.round(activeKcal + profile.bmrKcal),
    floors_climbed: r.int(2, 14),
    active_seconds: Math.round(activeSeconds),
    resting_heart_rate: restingHr,
    average_heart_rate: Math.round(heartRateSum / heartRateCount),
  };

  return {
    provider: GARMIN_PROVIDER,
    quantity,
    daily: [daily],
    workouts: plan.run ? [runWorkout(plan, plan.run, heartRateAt)] : [],
  };
}

/** A loop around the Tiergarten as a fine polyline: position, altitude and distance along it. */
interface LoopPoint {
  lat: number;
  lon: number;
  alt: number;
  /** Metres from the loop's start. */
  at: number;
}

const EARTH_RADIUS = 6_371_008.8;
const LOOP: readonly LoopPoint[] = buildLoop();
const LOOP_LENGTH = LOOP.at(-1)?.at ?? 1;

function haversine(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS * Math.asin(Math.sqrt(h));
}

function buildLoop(): LoopPoint[] {
  const points: LoopPoint[] = [];
  const n = 1440;
  for (let i = 0; i <= n; i++) {
    const theta = (2 * Math.PI * i) / n;
    const lat = 52.5143 + 0.0047 * Math.sin(theta) + 0.0004 * Math.sin(3 * theta);
    const lon = 13.3565 + 0.017 * Math.cos(theta) + 0.0006 * Math.cos(2 * theta);
    const alt = 35 + 3 * Math.sin(theta + 0.6) + 1.2 * Math.sin(4 * theta);
    const previous = points.at(-1);
    points.push({ lat, lon, alt, at: previous ? previous.at + haversine(previous, { lat, lon }) : 0 });
  }
  return points;
}

/** The point `meters` along the loop (wrapping around), interpolated. */
function alongLoop(meters: number): { lat: number; lon: number; alt: number } {
  const d = ((meters % LOOP_LENGTH) + LOOP_LENGTH) % LOOP_LENGTH;
  let lo = 0;
  let hi = LOOP.length - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if ((LOOP[mid]?.at ?? 0) <= d) lo = mid;
    else hi = mid;
  }
  const a = LOOP[lo];
  const b = LOOP[hi];
  if (!a || !b) throw new Error("empty loop");
  const f = b.at > a.at ? (d - a.at) / (b.at - a.at) : 0;
  return { lat: a.lat + f * (b.lat - a.lat), lon: a.lon + f * (b.lon - a.lon), alt: a.alt + f * (b.alt - a.alt) };
}

/**
 * The run as the Forerunner records it: a GPS fix every 5 s along the loop (with a few
 * metres of GPS noise), a warm-up, pace waves, altitude, and the heart rate of that second.
 */
function runWorkout(plan: DayPlan, run: Run, heartRateAt: (t: number) => number): WorkoutRecord {
  const { profile, date } = plan;
  const r = randomFor(profile.userId, date, "garmin-run");
  const seed = seedOf(profile.userId, date, "garmin-route");
  const startAt = LOOP_LENGTH * noiseAt(seedOf(profile.userId, "home"), 0);
  const direction = r.chance(0.5) ? 1 : -1;
  const route: RoutePointRecord[] = [];
  let meters = 0;
  let gain = 0;
  let previousAlt: number | null = null;
  for (let t = run.start, i = 0; t <= run.end; t += 5 * SECOND, i++) {
    const elapsed = (t - run.start) / SECOND;
    const warmUp = elapsed < 240 ? 0.88 + (0.12 * elapsed) / 240 : 1;
    const speed = Math.max(0.5, run.speed * warmUp * (1 + 0.04 * Math.sin((2 * Math.PI * elapsed) / 180)) + 0.08 * signedNoiseAt(seed, i));
    if (i > 0) meters += speed * 5;
    const at = alongLoop(startAt + direction * meters);
    if (previousAlt !== null && at.alt > previousAlt) gain += at.alt - previousAlt;
    previousAlt = at.alt;
    const cosLat = Math.cos((at.lat * Math.PI) / 180);
    route.push({
      timestamp: new Date(t),
      latitude: round(at.lat + (3 * signedNoiseAt(seed ^ 0x1, i)) / 111_320, 7),
      longitude: round(at.lon + (3 * signedNoiseAt(seed ^ 0x2, i)) / (111_320 * cosLat), 7),
      // Barometric altitude: smooth, unlike the GPS position.
      altitude: round(at.alt, 1),
      speed: round(speed, 2),
      heart_rate: heartRateAt(t),
      accuracy: round(3 + 4 * noiseAt(seed ^ 0x4, i), 1),
    });
  }
  const heartRates = route.map((p) => p.heart_rate ?? 0);
  const seconds = (run.end - run.start) / SECOND;
  const activeKcal = (meters / 1000) * profile.weightKg * 1.02;
  return {
    ...FORERUNNER,
    activity_type: "running",
    name: "Berlin Running",
    start_date: new Date(run.start),
    end_date: new Date(run.end),
    timezone: ZONE,
    duration_seconds: seconds,
    distance_meters: round(meters, 1),
    active_energy_kcal: Math.round(activeKcal),
    total_energy_kcal: Math.round(activeKcal + (profile.bmrKcal * seconds) / 86_400),
    average_heart_rate: Math.round(heartRates.reduce((a, b) => a + b, 0) / heartRates.length),
    max_heart_rate: Math.max(...heartRates),
    elevation_gain_meters: round(gain, 1),
    steps: Math.round((run.cadence * seconds) / 60),
    external_id: stableNumericId(11, profile.userId, date, "garmin-activity"),
    metadata: { activityType: "running", eventType: "uncategorized" },
    route,
  };
}
