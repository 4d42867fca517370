// FIT files read with Garmin's official FIT SDK (@garmin/fitsdk): activity files as one
// workout per session (route, laps, heart rate and cadence samples, HRV as a heartbeat
// series), monitoring files as steps, active energy and heart rate samples, weight scale
// files as body composition samples. Developer fields are decoded by the SDK and never read.

import {
  Decoder,
  Stream,
  type EventMesg,
  type FileIdMesg,
  type DeviceInfoMesg,
  type FitMessages,
  type HrvMesg,
  type LapMesg,
  type Mesg,
  type MonitoringMesg,
  type RecordMesg,
  type SessionMesg,
  type WeightScaleMesg,
} from "@garmin/fitsdk";
import type { QuantitySampleRecord, WorkoutRecord } from "@svc/core";
import { emptyParsedRecords, type ParsedRecords } from "../parsed-records.ts";
import { activityTypeFromFit, cadenceKind } from "./activity-types.ts";
import { cleanName, garminProductName, isWristWorn, vendorFromFitManufacturer } from "./devices.ts";
import { withoutCompressedTimestamps } from "./fit-compressed-timestamps.ts";
import {
  amountOf,
  dateOf,
  distanceFromPoints,
  elevationGainMeters,
  fileRejection,
  heartRateOf,
  heartRateSummary,
  numberOf,
  onePointPerTime,
  pointSamples,
  round,
  routeDistanceMeters,
  routeOf,
  utcOffset,
  type FileContext,
  type Provenance,
  type TrackPoint,
} from "./shared.ts";

// Global message numbers (FIT profile).
const MESG_EVENT = 21;
const MESG_MONITORING = 55;
const MESG_HRV = 78;
const MESG_MONITORING_INFO = 103;

/** Seconds from the Unix epoch to the FIT epoch, 1989-12-31T00:00:00Z. */
const FIT_EPOCH_SECONDS = 631_065_600;
/** 2^31: FIT positions are in semicircles. */
const SEMICIRCLES = 2 ** 31;
/** FIT's weight value 0xFFFE (655.34 kg after scaling) means "calculating", not a weight. */
const WEIGHT_CALCULATING = 655.34;
const CRC_SIZE = 2;

/** The SDK's decode options: the defaults, spelled out (developer fields are decoded and left alone). */
const DECODE_OPTIONS = {
  expandSubFields: true,
  expandComponents: true,
  applyScaleAndOffset: true,
  convertTypesToStrings: true,
  convertDateTimesToDates: true,
  includeUnknownData: false,
  mergeHeartRates: true,
  decodeMemoGlobs: false,
} as const;

interface OrderedMesg {
  num: number;
  mesg: Mesg;
}

interface DecodedFit {
  messages: FitMessages;
  /** Every message in file order (the messages above, in the order they came). */
  ordered: OrderedMesg[];
}

/**
 * Why the bytes are not a readable FIT file, or null: every chained FIT file in them must
 * have a FIT header (the SDK's isFIT), be complete, pass its header and file CRC (the SDK's
 * checkIntegrity), and decode without error.
 */
export function checkFit(bytes: Uint8Array): string | null {
  const refused = checkFitStructure(bytes);
  if (refused !== null) return refused;
  const decoded = decodeFit(bytes);
  return "error" in decoded ? decoded.error : null;
}

function checkFitStructure(bytes: Uint8Array): string | null {
  if (bytes.length === 0) return "the file is empty";
  let offset = 0;
  for (let part = 1; offset < bytes.length; part++) {
    const where = part === 1 ? "the FIT file" : `chained FIT file ${part} (at byte ${offset})`;
    // Only the header goes to isFIT, so that many chained files cost no more than one.
    const header = bytes.subarray(offset, offset + 14 + CRC_SIZE);
    if (!Decoder.isFIT(Stream.fromByteArray(header))) {
      return `${where} does not start with a complete FIT file header (12 or 14 bytes with the ".FIT" signature)`;
    }
    const headerSize = bytes[offset] ?? 0;
    const dataSize = new DataView(bytes.buffer, bytes.byteOffset + offset + 4, 4).getUint32(0, true);
    const size = headerSize + dataSize + CRC_SIZE;
    const available = bytes.length - offset;
    if (available < size) return `${where} is truncated: its header announces ${size} bytes, and ${available} are present`;
    if (!new Decoder(Stream.fromByteArray(bytes.subarray(offset, offset + size))).checkIntegrity()) {
      return `${where} fails its CRC check: the header or the data is corrupt`;
    }
    offset += size;
  }
  return null;
}

/** Decodes bytes that passed checkFitStructure; compressed-timestamp headers are rewritten first (the SDK refuses them). */
function decodeFit(bytes: Uint8Array): DecodedFit | { error: string } {
  const ordered: OrderedMesg[] = [];
  const { messages, errors } = new Decoder(Stream.fromByteArray(withoutCompressedTimestamps(bytes))).read({
    ...DECODE_OPTIONS,
    mesgListener: (num, mesg) => ordered.push({ num, mesg }),
  });
  const [error] = errors;
  if (error === undefined) return { messages, ordered };
  // The SDK's messages name a byte position and a cause, never a field value.
  const message = error instanceof Error ? error.message : "";
  const at = /at byte (\d+)/.exec(message)?.[1];
  return { error: `the FIT data is malformed${at === undefined ? "" : ` (decoding stopped at byte ${at})`}` };
}

/** Records from a FIT file; a file that checkFit refuses gives one rejection and nothing else. */
export function parseFit(bytes: Uint8Array, context: FileContext): ParsedRecords {
  const out = emptyParsedRecords();
  const refused = checkFitStructure(bytes);
  const decoded = refused === null ? decodeFit(bytes) : { error: refused };
  if ("error" in decoded) {
    out.rejected.push(fileRejection(decoded.error));
    return out;
  }
  const { messages, ordered } = decoded;
  const provenance: Provenance = { ...deviceOf(messages), timezone: timezoneOf(messages) ?? null };
  readSessions(messages, provenance, context, out);
  readHeartbeats(messages, ordered, provenance, context, out);
  readMonitoring(ordered, provenance, out);
  readWeightScale(messages, { ...provenance, on_body: false }, out);
  const read =
    out.workouts.length + out.quantitySamples.length + out.heartbeatSeries.length + out.rejected.length;
  if (read === 0) {
    const type = messages.fileIdMesgs?.[0]?.type;
    const kind = typeof type === "string" ? ` (file type ${type})` : "";
    out.rejected.push(fileRejection(`the FIT file${kind} has no session, record, HRV, monitoring or weight scale messages`));
  }
  return out;
}

// --- Device and time zone -------------------------------------------------------------

/** The vendor and device that made the file: file_id first, else the creator's device_info. */
function deviceOf(messages: FitMessages): Provenance {
  const creator = messages.deviceInfoMesgs?.find((d) => d.deviceIndex === "creator" || d.deviceIndex === 0);
  const candidates: Array<FileIdMesg | DeviceInfoMesg> = [];
  const fileId = messages.fileIdMesgs?.[0];
  if (fileId) candidates.push(fileId);
  if (creator) candidates.push(creator);
  for (const candidate of candidates) {
    const source = vendorFromFitManufacturer(candidate.manufacturer);
    if (source === null) continue;
    const device = deviceNameOf(candidate, source);
    return { source, device, on_body: isWristWorn(device) };
  }
  return { source: null, device: null, on_body: false };
}

function deviceNameOf(mesg: FileIdMesg | DeviceInfoMesg, source: string): string | null {
  const productName = cleanName(mesg.productName);
  if (productName) return productName;
  if (source === "garmin" && typeof mesg.garminProduct === "string") return garminProductName(mesg.garminProduct);
  const product = numberOf(mesg.product);
  return product === undefined ? null : `product ${product}`;
}

/** The UTC offset the device kept (activity or monitoring_info local_timestamp against timestamp). */
function timezoneOf(messages: FitMessages): string | undefined {
  const candidates = [...(messages.activityMesgs ?? []), ...(messages.monitoringInfoMesgs ?? [])];
  for (const mesg of candidates) {
    const utc = dateOf(mesg.timestamp);
    const local = numberOf(mesg.localTimestamp);
    if (utc && local !== undefined) return utcOffset(local - fitSecondsOf(utc));
  }
  return undefined;
}

function fitSecondsOf(date: Date): number {
  return Math.floor(date.getTime() / 1000) - FIT_EPOCH_SECONDS;
}

function dateOfFitSeconds(seconds: number): Date {
  return new Date((seconds + FIT_EPOCH_SECONDS) * 1000);
}

// --- Activities ---------------------------------------------------------------------------

/**
 * One workout per session, with the records in its time range as route and samples (one
 * point per timestamp, see onePointPerTime).
 */
function readSessions(messages: FitMessages, provenance: Provenance, context: FileContext, out: ParsedRecords): void {
  const points = onePointPerTime((messages.recordMesgs ?? []).map(recordPoint).filter((p) => p !== undefined));
  const claimed = new Set<number>();
  const sessions = messages.sessionMesgs ?? [];
  sessions.forEach((session, index) => {
    const locator = `session[${index}]`;
    const start = dateOf(session.startTime);
    const end = start && summaryEnd(start, session);
    if (!start || !end) {
      out.rejected.push({ recordKind: "workout", locator, reason: "the session has no valid start and end time" });
      return;
    }
    const sessionPoints: TrackPoint[] = [];
    points.forEach((point, i) => {
      if (claimed.has(i) || point.timestamp < start || point.timestamp > end) return;
      claimed.add(i);
      sessionPoints.push(point);
    });
    const activityType = activityTypeFromFit(session.sport, session.subSport);
    out.workouts.push(workoutOf(session, index, activityType, start, end, sessionPoints, messages.lapMesgs ?? [], provenance, context));
    out.quantitySamples.push(...pointSamples(sessionPoints, activityType, provenance));
  });
  // Records outside every session still give heart rate samples (cadence needs a sport).
  const loose = points.filter((_, i) => !claimed.has(i));
  out.quantitySamples.push(...pointSamples(loose, "other", provenance));
  if (sessions.length === 0 && loose.length > 0) {
    out.rejected.push({ recordKind: "workout", locator: "file", reason: "the FIT file has records but no session message, so no workout was made" });
  }
}

function workoutOf(
  session: SessionMesg,
  index: number,
  activityType: string,
  start: Date,
  end: Date,
  points: readonly TrackPoint[],
  allLaps: readonly LapMesg[],
  provenance: Provenance,
  context: FileContext,
): WorkoutRecord {
  const route = routeOf(points);
  const heartRate = heartRateSummary(points);
  const strides = cadenceKind(activityType) === "steps" ? amountOf(session.totalStrides) : undefined;
  return {
    activity_type: activityType,
    start_date: start,
    end_date: end,
    duration_seconds: amountOf(session.totalTimerTime) ?? amountOf(session.totalElapsedTime) ?? null,
    distance_meters: amountOf(session.totalDistance) ?? distanceFromPoints(points) ?? routeDistanceMeters(route) ?? null,
    total_energy_kcal: energyOf(session.totalCalories) ?? null,
    average_heart_rate: heartRateOf(session.avgHeartRate) ?? heartRate.average ?? null,
    max_heart_rate: heartRateOf(session.maxHeartRate) ?? heartRate.max ?? null,
    elevation_gain_meters: amountOf(session.totalAscent) ?? elevationGainMeters(points) ?? null,
    steps: strides === undefined ? null : strides * 2,
    ...provenance,
    external_id: `${context.fileId}:session:${index}`,
    metadata: {
      file_format: "fit",
      ...(context.fileName ? { file_name: context.fileName } : {}),
      session_index: index,
      fit_sport: session.sport ?? null,
      fit_sub_sport: session.subSport ?? null,
      total_elapsed_seconds: amountOf(session.totalElapsedTime) ?? null,
      laps: lapsOf(session, allLaps, start, end).map(lapMetadata),
    },
    locator: `session[${index}]`,
    route,
  };
}

/**
 * The end of a session or lap: the latest of its timestamp, its start plus its elapsed time,
 * and its start plus its timer time. Files written "summary first" (and apps such as Onelap)
 * set the timestamp when the message was written, not at the end (Garmin: use start_time +
 * total_elapsed_time); summary-last files set it a little after the end, which keeps the
 * records logged after the timer stopped. Never before the start; undefined without any end.
 */
function summaryEnd(start: Date, summary: SessionMesg | LapMesg): Date | undefined {
  const timestamp = dateOf(summary.timestamp);
  const ends = [timestamp?.getTime(), ...[summary.totalElapsedTime, summary.totalTimerTime].map((s) => afterStart(start, s))];
  const known = ends.filter((t) => t !== undefined && t >= start.getTime()) as number[];
  return known.length > 0 ? new Date(Math.max(...known)) : undefined;
}

function afterStart(start: Date, seconds: unknown): number | undefined {
  const amount = amountOf(seconds);
  return amount === undefined ? undefined : start.getTime() + Math.round(amount * 1000);
}

/** A session's total calories; 0 means the device did not count them (an hour's run never burns nothing). */
function energyOf(value: unknown): number | undefined {
  const kcal = amountOf(value);
  return kcal === 0 ? undefined : kcal;
}

/** A record as a track point (position from semicircles to degrees); undefined without a time. */
function recordPoint(record: RecordMesg, index: number): TrackPoint | undefined {
  const timestamp = dateOf(record.timestamp);
  if (!timestamp) return undefined;
  const lat = numberOf(record.positionLat);
  const long = numberOf(record.positionLong);
  const cadence = numberOf(record.cadence);
  const positioned = lat !== undefined && long !== undefined;
  return {
    timestamp,
    latitude: positioned ? (lat * 180) / SEMICIRCLES : undefined,
    longitude: positioned ? (long * 180) / SEMICIRCLES : undefined,
    altitude: numberOf(record.enhancedAltitude) ?? numberOf(record.altitude),
    speed: amountOf(record.enhancedSpeed) ?? amountOf(record.speed),
    heartRate: heartRateOf(record.heartRate),
    cadence: cadence === undefined ? undefined : cadence + (amountOf(record.fractionalCadence) ?? 0),
    distance: amountOf(record.distance),
    locator: `record[${index}]`,
  };
}

/** The session's laps: by first_lap_index and num_laps when given, else those starting within it. */
function lapsOf(session: SessionMesg, laps: readonly LapMesg[], start: Date, end: Date): LapMesg[] {
  const first = numberOf(session.firstLapIndex);
  const count = numberOf(session.numLaps);
  if (first !== undefined && count !== undefined && first + count <= laps.length) return laps.slice(first, first + count);
  return laps.filter((lap) => {
    const lapStart = dateOf(lap.startTime);
    return lapStart !== undefined && lapStart >= start && (lapStart < end || lapStart.getTime() === start.getTime());
  });
}

function lapMetadata(lap: LapMesg): Record<string, unknown> {
  const start = dateOf(lap.startTime);
  return {
    start_date: start?.toISOString() ?? null,
    end_date: (start ? summaryEnd(start, lap) : dateOf(lap.timestamp))?.toISOString() ?? null,
    total_elapsed_seconds: amountOf(lap.totalElapsedTime) ?? null,
    total_timer_seconds: amountOf(lap.totalTimerTime) ?? null,
    distance_meters: amountOf(lap.totalDistance) ?? null,
    calories_kcal: amountOf(lap.totalCalories) ?? null,
    average_heart_rate: heartRateOf(lap.avgHeartRate) ?? null,
    max_heart_rate: heartRateOf(lap.maxHeartRate) ?? null,
    total_ascent_meters: amountOf(lap.totalAscent) ?? null,
    trigger: typeof lap.lapTrigger === "string" ? lap.lapTrigger : null,
  };
}

// --- HRV ------------------------------------------------------------------------------------

/**
 * The file's HRV messages as one heartbeat series of RR intervals (seconds to ms). Devices
 * log beat-to-beat intervals from the timer's first start to the end of the file without a
 * break (timer pauses do not pause them), so the first beat is anchored at the first timer
 * start event, else the first session's start, else the last time seen before the first HRV
 * message. Missing entries (the SDK's null for invalid) are skipped.
 */
function readHeartbeats(messages: FitMessages, ordered: readonly OrderedMesg[], provenance: Provenance, context: FileContext, out: ParsedRecords): void {
  let firstTimerStart: Date | undefined;
  let lastTime: Date | undefined;
  let anchor: Date | undefined;
  const intervals: { interval_ms: number }[] = [];
  for (const { num, mesg } of ordered) {
    if (num === MESG_HRV) {
      anchor ??= firstTimerStart ?? dateOf(messages.sessionMesgs?.[0]?.startTime) ?? lastTime;
      const time = (mesg as HrvMesg).time;
      for (const seconds of Array.isArray(time) ? time : [time]) {
        const value = numberOf(seconds);
        if (value !== undefined && value > 0) intervals.push({ interval_ms: Math.round(value * 1000) });
      }
      continue;
    }
    const time = dateOf((mesg as { timestamp?: unknown }).timestamp);
    if (time) lastTime = time;
    if (num === MESG_EVENT && !firstTimerStart) {
      const event = mesg as EventMesg;
      if (event.event === "timer" && event.eventType === "start") firstTimerStart = time;
    }
  }
  if (intervals.length === 0) return;
  if (!anchor) {
    out.rejected.push({ recordKind: "heartbeat_series", locator: "hrv", reason: "the HRV messages have no time to start from" });
    return;
  }
  out.heartbeatSeries.push({
    start_date: anchor,
    rr_intervals: intervals,
    ...provenance,
    external_id: `${context.fileId}:hrv`,
    metadata: { file_format: "fit", ...(context.fileName ? { file_name: context.fileName } : {}) },
    locator: "hrv",
  });
}

// --- Monitoring -----------------------------------------------------------------------------

const STEP_ACTIVITIES: ReadonlySet<unknown> = new Set(["walking", "running", 6, 1]);

interface Interval {
  start: Date;
  end: Date;
  value: number;
  locator: string;
}

/** A daily summary's figure of one kind for one activity type. */
interface Summary extends Interval {
  kind: "steps" | "energy";
  activity: string;
}

/** Where the file's counts start: monitoring_info's time, and the device's UTC offset in seconds (when it gives one). */
interface FileStart {
  time: Date;
  offsetSeconds: number | undefined;
}

const SECONDS_PER_DAY = 86_400;

/**
 * Monitoring (wellness) messages. Their times are often 16-bit (timestamp_16), resolved
 * against the last full timestamp in file order. `cycles` are the running total of the local
 * day per activity type (steps = 2 × cycles for walking and running), so each message gives
 * the steps since the previous monitoring message; a total lower than the one before starts a
 * new day. The first total of a type counts from zero only when the file saw the day's count
 * start (see countsFromZero); otherwise it only sets the baseline. Daily summaries (a full
 * timestamp and duration_min) give active energy, and steps when the file has no intraday
 * counts; each is cumulative since the day's start, so of a type's overlapping summaries only
 * the last one counts. Heart rate readings become instant samples.
 */
function readMonitoring(ordered: readonly OrderedMesg[], provenance: Provenance, out: ParsedRecords): void {
  let lastFitSeconds: number | undefined;
  let previousTime: Date | undefined;
  let fileStart: FileStart | undefined;
  let untimed = 0;
  let index = -1;
  let intradaySteps = false;
  const totals = new Map<string, number>();
  const intraday = new Map<string, Interval>();
  const summaries: Summary[] = [];
  for (const { num, mesg } of ordered) {
    const fullTime = dateOf((mesg as { timestamp?: unknown }).timestamp);
    if (fullTime) lastFitSeconds = fitSecondsOf(fullTime);
    if (num === MESG_MONITORING_INFO && fullTime) {
      const local = numberOf((mesg as { localTimestamp?: unknown }).localTimestamp);
      fileStart = { time: fullTime, offsetSeconds: local === undefined ? undefined : local - fitSecondsOf(fullTime) };
      previousTime = fullTime;
    }
    if (num !== MESG_MONITORING) continue;
    index++;
    const monitoring = mesg as MonitoringMesg;
    const locator = `monitoring[${index}]`;
    let time = fullTime;
    const timestamp16 = numberOf(monitoring.timestamp16);
    if (!time && timestamp16 !== undefined && lastFitSeconds !== undefined) {
      lastFitSeconds += (timestamp16 - (lastFitSeconds & 0xffff)) & 0xffff;
      time = dateOfFitSeconds(lastFitSeconds);
    }
    if (!time) {
      untimed++;
      continue;
    }
    const activity = String(monitoring.activityType);
    const steps = STEP_ACTIVITIES.has(monitoring.activityType) ? (amountOf(monitoring.steps) ?? twice(amountOf(monitoring.cycles))) : undefined;
    const durationMinutes = amountOf(monitoring.durationMin);
    if (fullTime && durationMinutes !== undefined && durationMinutes > 0) {
      const start = new Date(time.getTime() - durationMinutes * 60_000);
      const energy = amountOf(monitoring.activeCalories);
      if (steps !== undefined) summaries.push({ kind: "steps", activity, start, end: time, value: steps, locator });
      if (energy !== undefined) summaries.push({ kind: "energy", activity, start, end: time, value: energy, locator });
      continue;
    }
    if (steps !== undefined) {
      intradaySteps = true;
      const before = totals.get(activity) ?? (countsFromZero(fileStart, time) ? 0 : undefined);
      totals.set(activity, steps);
      const delta = before === undefined ? 0 : steps >= before ? steps - before : steps;
      if (delta > 0) addTo(intraday, previousTime && previousTime < time ? previousTime : time, time, delta, locator);
    }
    const heartRate = heartRateOf(monitoring.heartRate);
    if (heartRate !== undefined) out.quantitySamples.push({ type: "heart_rate", value: heartRate, unit: "count/min", start_date: time, locator, ...provenance });
    previousTime = time;
  }
  const summarySteps = new Map<string, Interval>();
  const summaryEnergy = new Map<string, Interval>();
  for (const s of lastOfOverlapping(summaries)) addTo(s.kind === "steps" ? summarySteps : summaryEnergy, s.start, s.end, s.value, s.locator);
  out.quantitySamples.push(...samplesOf("step_count", "count", intradaySteps ? intraday : summarySteps, provenance));
  out.quantitySamples.push(...samplesOf("active_energy_burned", "kcal", summaryEnergy, provenance));
  if (untimed > 0) {
    out.rejected.push({ recordKind: "quantity_sample", locator: "monitoring", reason: `${untimed} monitoring message(s) without a resolvable time were left out` });
  }
}

/**
 * Whether the day's running total at `time` was counted within this file: the file starts at
 * a local midnight (a daily file), or a local midnight passed between its start and `time`.
 * Otherwise the total includes steps taken before the file began (an earlier file of the same
 * day has them), so it is only a baseline. Without the device's UTC offset it is a baseline.
 */
function countsFromZero(fileStart: FileStart | undefined, time: Date): boolean {
  if (fileStart?.offsetSeconds === undefined) return false;
  const startLocal = fitSecondsOf(fileStart.time) + fileStart.offsetSeconds;
  const local = fitSecondsOf(time) + fileStart.offsetSeconds;
  return startLocal % SECONDS_PER_DAY === 0 || Math.floor(local / SECONDS_PER_DAY) > Math.floor(startLocal / SECONDS_PER_DAY);
}

/**
 * Daily summaries without those another summary of the same kind and activity type
 * contains: a summary counts since the day's start, so of overlapping ones the one ending
 * last holds the others (05:00-07:05 is part of 05:00-22:06); the first in file order wins a tie.
 */
function lastOfOverlapping(summaries: readonly Summary[]): Summary[] {
  const kept: Summary[] = [];
  for (const s of [...summaries].sort((a, b) => b.end.getTime() - a.end.getTime())) {
    const contained = kept.some((k) => k.kind === s.kind && k.activity === s.activity && s.start < k.end && k.start < s.end);
    if (!contained) kept.push(s);
  }
  return kept;
}

function twice(value: number | undefined): number | undefined {
  return value === undefined ? undefined : Math.round(value * 2);
}

/** Adds a value to the interval it covers (two activity types ending together make one sample). */
function addTo(intervals: Map<string, Interval>, start: Date, end: Date, value: number, locator: string): void {
  const key = `${start.toISOString()}/${end.toISOString()}`;
  const known = intervals.get(key);
  if (known) known.value += value;
  else intervals.set(key, { start, end, value, locator });
}

function samplesOf(type: string, unit: string, intervals: ReadonlyMap<string, Interval>, provenance: Provenance): QuantitySampleRecord[] {
  return [...intervals.values()].map((i) => ({ type, value: i.value, unit, start_date: i.start, end_date: i.end, locator: i.locator, ...provenance }));
}

// --- Weight scale ---------------------------------------------------------------------------

/**
 * Weight scale messages as body composition samples. A file with measurements of more than
 * one user profile (a family scale) is refused message by message: which profile is the
 * uploader's is not known, and another person's weight must not land in this account.
 */
function readWeightScale(messages: FitMessages, provenance: Provenance, out: ParsedRecords): void {
  const scales = messages.weightScaleMesgs ?? [];
  if (scales.length === 0) return;
  const profiles = new Set(scales.map((s) => numberOf(s.userProfileIndex)).filter((i) => i !== undefined));
  if (profiles.size > 1 || (messages.userProfileMesgs?.length ?? 0) > 1) {
    scales.forEach((_, i) =>
      out.rejected.push({
        recordKind: "quantity_sample",
        locator: `weight_scale[${i}]`,
        reason: "the weight scale file holds measurements of several user profiles, and which one is the uploader's is not known",
      }),
    );
    return;
  }
  scales.forEach((scale, i) => out.quantitySamples.push(...weightSamples(scale, `weight_scale[${i}]`, provenance, out)));
}

function weightSamples(scale: WeightScaleMesg, locator: string, provenance: Provenance, out: ParsedRecords): QuantitySampleRecord[] {
  const time = dateOf(scale.timestamp);
  if (!time) {
    out.rejected.push({ recordKind: "quantity_sample", locator, reason: "the weight scale measurement has no valid time" });
    return [];
  }
  const samples: QuantitySampleRecord[] = [];
  const add = (type: string, value: number | undefined, unit: string, metadata?: Record<string, unknown>) => {
    if (value !== undefined && value > 0) samples.push({ type, value, unit, start_date: time, locator, ...provenance, ...(metadata ? { metadata } : {}) });
  };
  const weight = amountOf(scale.weight);
  const bodyMass = weight !== undefined && weight < WEIGHT_CALCULATING ? weight : undefined;
  const percent = (value: unknown) => {
    const n = amountOf(value);
    return n !== undefined && n <= 100 ? n : undefined;
  };
  const hydration = percent(scale.percentHydration);
  add("body_mass", bodyMass, "kg");
  add("body_fat_percentage", percent(scale.percentFat), "%");
  if (bodyMass !== undefined && hydration !== undefined) {
    add("body_water_mass", round((bodyMass * hydration) / 100, 3), "kg", { percent_hydration: hydration });
  }
  add("bone_mass", amountOf(scale.boneMass), "kg");
  add("muscle_mass", amountOf(scale.muscleMass), "kg");
  add("body_mass_index", amountOf(scale.bmi), "kg/m2");
  return samples;
}
