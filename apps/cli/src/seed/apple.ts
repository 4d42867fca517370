// Apple Health (provider `apple_health`, source `apple`): an iPhone in a pocket and an
// Apple Watch on the wrist, as a HealthKit export would deliver them.

import type {
  CategorySampleRecord,
  EcgRecordingRecord,
  HeartbeatSeriesRecord,
  QuantitySampleRecord,
  SleepPhaseRecord,
  SleepSessionRecord,
} from "@svc/core";
import { activityIntervals, periodDay, trueHeartRate, type DayPlan, type Night } from "./person.ts";
import { clamp, noiseAt, randomFor, round, seedOf, signedNoiseAt, stableUuid, type Random } from "./random.ts";
import { joinPhases, type ProviderDay, type SeedOptions } from "./records.ts";
import { addDays, DAY, epochSeconds, localTime, midnightUtc, MINUTE, SECOND, weekday, ZONE } from "./time.ts";

export const APPLE_PROVIDER = "apple_health";

const PHONE = {
  source: "apple",
  device: "iPhone 15",
  on_body: false,
  source_name: "iPhone",
  source_bundle_id: "com.apple.health",
  device_model: "iPhone",
  product_type: "iPhone15,4",
} as const;

const WATCH = {
  source: "apple",
  device: "Apple Watch Series 9",
  on_body: true,
  source_name: "Apple Watch",
  source_bundle_id: "com.apple.health",
  device_model: "Watch",
  product_type: "Watch7,1",
} as const;

const HEALTH_APP = { ...PHONE, source_name: "Health" } as const;

const MENSTRUAL_FLOW_BY_DAY = [["medium"], ["heavy"], ["heavy", "medium"], ["medium", "light"], ["light", "unspecified"]] as const;

export function appleDay(plan: DayPlan, options: SeedOptions): ProviderDay {
  const { date } = plan;
  const r = randomFor(plan.profile.userId, date, "apple");
  const quantity: QuantitySampleRecord[] = [];
  const sample = (device: typeof PHONE | typeof WATCH, type: string, value: number, start: number, end = start): QuantitySampleRecord => ({
    ...device,
    type,
    value,
    start_date: new Date(start),
    end_date: new Date(end),
    timezone: ZONE,
  });

  // Steps, distance and active energy per 10 minutes while up; phone and watch overlap.
  for (const interval of activityIntervals(plan)) {
    const { start, end } = interval;
    if (interval.phoneSteps > 0) {
      quantity.push(sample(PHONE, "step_count", interval.phoneSteps, start, end));
      quantity.push(sample(PHONE, "distance_walking_running", round(interval.phoneDistance, 2), start, end));
    }
    if (interval.watchSteps > 0) {
      quantity.push(sample(WATCH, "step_count", interval.watchSteps, start, end));
      quantity.push(sample(WATCH, "distance_walking_running", round(interval.watchDistance, 2), start, end));
    }
    quantity.push(sample(WATCH, "active_energy_burned", round(interval.activeKcal, 3), start, end));
  }

  // Watch heart rate every N seconds over the whole UTC day.
  const dayStart = midnightUtc(date);
  const every = options.heartRateEvery * SECOND;
  const watchSeed = seedOf(plan.profile.userId, "apple-watch-hr");
  for (let t = dayStart; t < dayStart + DAY; t += every) {
    const value = Math.round(trueHeartRate(plan, t) + 1.5 * signedNoiseAt(watchSeed, epochSeconds(t)));
    quantity.push(sample(WATCH, "heart_rate", value, t));
  }

  // Daily resting heart rate over the waking day.
  quantity.push(sample(WATCH, "resting_heart_rate", Math.round(plan.restingHr + r.normal(0, 0.8)), plan.night.outOfBed, plan.nextNight.inBed));

  // The night: readings while asleep, one heartbeat series (with the first HRV reading), the session.
  const night = plan.night;
  const asleepAt = (minutesBeforeWake: number) => {
    const t = night.asleep + r.between(20 * MINUTE, night.wake - night.asleep - minutesBeforeWake * MINUTE);
    return Math.round(t / SECOND) * SECOND;
  };
  const seriesStart = asleepAt(10);
  const heartbeats = heartbeatSeries(plan, night, seriesStart);
  quantity.push(sample(WATCH, "hrv_sdnn", round(heartbeats.sdnn, 2), seriesStart, seriesStart + MINUTE));
  for (let i = r.int(1, 3); i > 0; i--) {
    const start = asleepAt(5);
    quantity.push(sample(WATCH, "hrv_sdnn", round(heartbeats.sdnn * clamp(r.normal(1, 0.15), 0.6, 1.5), 2), start, start + MINUTE));
  }
  for (let i = r.int(4, 8); i > 0; i--) {
    quantity.push(sample(WATCH, "oxygen_saturation", clamp(Math.round(night.spo2 + r.normal(0, 0.9)), 90, 100), asleepAt(0)));
  }
  for (let i = r.int(5, 10); i > 0; i--) {
    quantity.push(sample(WATCH, "respiratory_rate", round(2 * (night.respiratoryRate + r.normal(0, 0.6))) / 2, asleepAt(0)));
  }

  return {
    provider: APPLE_PROVIDER,
    quantity,
    category: categorySamples(plan, r),
    sleep: [sleepSession(plan, night)],
    heartbeats: [heartbeats.record],
    ecg: weekday(date) === plan.profile.ecgWeekday ? [ecgRecording(plan, r)] : [],
  };
}

/** The watch's view of the night: its detection a little late, boundaries off by up to a minute, some deep sleep read as core. */
function sleepSession(plan: DayPlan, night: Night): SleepSessionRecord {
  const r = randomFor(plan.profile.userId, plan.date, "apple-sleep");
  const step = 30 * SECOND;
  const start = night.inBed + r.int(2, 8) * step;
  const end = night.outOfBed - r.int(0, 4) * step;
  const phases: SleepPhaseRecord[] = [];
  let from = start;
  night.phases.forEach((phase, i) => {
    const last = i === night.phases.length - 1;
    const to = last ? end : Math.min(end, Math.max(from + step, phase.end + r.int(-2, 2) * step));
    if (to <= from) return;
    const stage = phase.stage === "deep" && r.chance(0.2) ? "light" : phase.stage;
    phases.push({ stage, start_date: new Date(from), end_date: new Date(to) });
    from = to;
  });
  return {
    ...WATCH,
    kind: "sleep",
    bedtime_start: new Date(start),
    bedtime_end: new Date(end),
    timezone: ZONE,
    metadata: { HKTimeZone: ZONE },
    phases: joinPhases(phases),
  };
}

/**
 * About a minute of beat-to-beat times while asleep: the RR interval follows the heart rate,
 * swings with breathing (sinus arrhythmia) and jitters a little. Its SDNN is the first HRV reading.
 */
function heartbeatSeries(plan: DayPlan, night: Night, start: number): { record: HeartbeatSeriesRecord; sdnn: number } {
  const seed = seedOf(plan.profile.userId, plan.date, "beats");
  const swing = 1.1 * night.rmssd;
  const beats: Array<{ timestamp: Date }> = [{ timestamp: new Date(start) }];
  const intervals: number[] = [];
  for (let t = start; t < start + MINUTE; ) {
    const seconds = (t - start) / SECOND;
    const rr = Math.round(
      60_000 / trueHeartRate(plan, t) +
        swing * Math.sin((2 * Math.PI * seconds * night.respiratoryRate) / 60) +
        0.35 * swing * signedNoiseAt(seed, intervals.length),
    );
    t += rr;
    intervals.push(rr);
    beats.push({ timestamp: new Date(t) });
  }
  const mean = intervals.reduce((a, b) => a + b, 0) / intervals.length;
  const sdnn = Math.sqrt(intervals.reduce((a, b) => a + (b - mean) ** 2, 0) / (intervals.length - 1));
  const record: HeartbeatSeriesRecord = {
    ...WATCH,
    start_date: new Date(start),
    end_date: beats.at(-1)?.timestamp,
    external_id: stableUuid(plan.profile.userId, plan.date, "heartbeat-series"),
    timezone: ZONE,
    beats,
  };
  return { record, sdnn };
}

function categorySamples(plan: DayPlan, r: Random): CategorySampleRecord[] {
  const { date } = plan;
  const samples: CategorySampleRecord[] = [];
  const period = periodDay(plan.profile, date);
  if (period !== null) {
    samples.push({
      ...HEALTH_APP,
      type: "menstrual_flow",
      value: r.pick(MENSTRUAL_FLOW_BY_DAY[period] ?? ["unspecified"]),
      start_date: localTime(date, 0),
      end_date: localTime(addDays(date, 1), 0),
      was_user_entered: true,
      timezone: ZONE,
      metadata: period === 0 ? { HKMenstrualCycleStart: true } : {},
    });
  }
  if (r.chance(0.3)) {
    const start = localTime(date, r.between(21 * 60, 21.9 * 60)).getTime();
    const end = start + r.int(3, 15) * MINUTE;
    if (end < plan.nextNight.inBed) {
      samples.push({
        ...WATCH,
        source_name: "Mindfulness",
        type: "mindful_session",
        value: r.pick(["breathing", "meditation", "breathing"]),
        start_date: new Date(start),
        end_date: new Date(end),
        timezone: ZONE,
      });
    }
  }
  return samples;
}

// Waves of one beat: amplitude (µV), offset from the R peak (s), width (s).
const WAVES = [
  { amplitude: 120, offset: -0.18, width: 0.025 },
  { amplitude: -90, offset: -0.035, width: 0.009 },
  { amplitude: 1050, offset: 0, width: 0.011 },
  { amplitude: -260, offset: 0.035, width: 0.01 },
] as const;

/**
 * A 30-second single-lead recording at 512 Hz in a calm moment of the day: PQRST beats as
 * sums of Gaussians at the heart rate of that moment, baseline wander, mains hum and noise.
 */
function ecgRecording(plan: DayPlan, r: Random): EcgRecordingRecord {
  const hz = 512;
  const seconds = 30;
  let start = localTime(plan.date, r.between(10 * 60, 20 * 60)).getTime();
  for (const a of plan.activities) if (start + 40 * SECOND > a.start && start < a.end + 20 * MINUTE) start = a.end + 30 * MINUTE;
  start = Math.round(start / SECOND) * SECOND;
  const heartRate = trueHeartRate(plan, start) - 6;
  const seed = seedOf(plan.profile.userId, plan.date, "ecg");
  const beats: number[] = [];
  for (let t = 0.25 + noiseAt(seed, -1) * 0.4; t < seconds + 1; ) {
    beats.push(t);
    t += (60 / heartRate) * (1 + 0.04 * Math.sin(2 * Math.PI * t * 0.25) + 0.015 * signedNoiseAt(seed, -2 - beats.length));
  }
  const voltages: number[] = [];
  let next = 0;
  for (let i = 0; i < seconds * hz; i++) {
    const t = i / hz;
    while (next < beats.length - 1 && (beats[next + 1] ?? Infinity) <= t) next++;
    let v = 40 * Math.sin(2 * Math.PI * 0.28 * t) + 6 * Math.sin(2 * Math.PI * 50 * t) + 12 * signedNoiseAt(seed, i);
    for (const b of [beats[next - 1], beats[next], beats[next + 1]]) {
      if (b === undefined) continue;
      const rr = 60 / heartRate;
      for (const w of WAVES) v += w.amplitude * Math.exp(-(((t - b - w.offset) / w.width) ** 2) / 2);
      v += 300 * Math.exp(-(((t - b - 0.26 * Math.sqrt(rr)) / 0.045) ** 2) / 2);
    }
    voltages.push(round(v, 1));
  }
  const inWindow = beats.filter((b) => b < seconds).length;
  return {
    ...WATCH,
    source_name: "ECG",
    start_date: new Date(start),
    end_date: new Date(start + seconds * SECOND),
    classification: "sinusRhythm",
    average_heart_rate: Math.round((inWindow * 60) / seconds),
    sampling_frequency_hz: hz,
    lead_name: "Apple Watch Simulating Lead I",
    voltages,
    symptoms: [],
    external_id: stableUuid(plan.profile.userId, plan.date, "ecg"),
    timezone: ZONE,
  };
}
