// TCX (Training Center Database v2) activities as workouts: one workout per `<Activity>`,
// totals from its laps, route from its trackpoints (none for a treadmill run), heart rate
// and cadence from trackpoints and Garmin's ActivityExtension v2 (`TPX`, `LX`).

import type { WorkoutRecord } from "@svc/core";
import { emptyParsedRecords, type ParsedRecords } from "../parsed-records.ts";
import { activityTypeFromName } from "./activity-types.ts";
import { cleanName, isWristWorn, vendorFromName } from "./devices.ts";
import {
  amountOf,
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
  type FileContext,
  type Provenance,
  type TrackPoint,
} from "./shared.ts";
import { ACTIVITY_EXTENSION_NAMESPACE, childOf, childrenOf, childText, parseXmlTime, TCX_NAMESPACE, XSI_NAMESPACE, type XmlElement } from "./xml.ts";

const NS = TCX_NAMESPACE;
const AX = ACTIVITY_EXTENSION_NAMESPACE;

interface Lap {
  start: Date | undefined;
  totalTimeSeconds: number | undefined;
  distanceMeters: number | undefined;
  calories: number | undefined;
  averageHeartRate: number | undefined;
  maxHeartRate: number | undefined;
  steps: number | undefined;
  metadata: Record<string, unknown>;
}

/** Records from a TCX document whose root is `<TrainingCenterDatabase>` in the TCX v2 namespace. */
export function parseTcx(root: XmlElement, context: FileContext): ParsedRecords {
  const out = emptyParsedRecords();
  const activities = childrenOf(root, NS, "Activities").flatMap((a) => childrenOf(a, NS, "Activity"));
  if (activities.length === 0) {
    out.rejected.push(fileRejection("the TCX file has no <Activity>; planned workouts, courses and multi-sport sessions are not read"));
    return out;
  }
  const author = childOf(root, NS, "Author");
  activities.forEach((activity, index) => readActivity(activity, index, author, context, out));
  return out;
}

function readActivity(activity: XmlElement, index: number, author: XmlElement | undefined, context: FileContext, out: ParsedRecords): void {
  const locator = `Activity[${index}]`;
  const laps: Lap[] = [];
  const read: TrackPoint[] = [];
  let untimed = 0;
  childrenOf(activity, NS, "Lap").forEach((lapElement, l) => {
    laps.push(lapOf(lapElement));
    childrenOf(lapElement, NS, "Track").forEach((track, t) => {
      childrenOf(track, NS, "Trackpoint").forEach((trackpoint, p) => {
        const point = trackpointOf(trackpoint, `${locator}/Lap[${l}]/Track[${t}]/Trackpoint[${p}]`);
        if (point) read.push(point);
        else untimed++;
      });
    });
  });
  if (untimed > 0) {
    out.rejected.push({ recordKind: "workout_route_point", locator, reason: `${untimed} trackpoint(s) without a valid time were left out` });
  }
  const points = onePointPerTime(read);

  const start = laps[0]?.start ?? parseXmlTime(childText(activity, NS, "Id")) ?? points[0]?.timestamp;
  if (!start) {
    out.rejected.push({ recordKind: "workout", locator, reason: "the activity has no valid start time (lap StartTime, Id or trackpoint Time)" });
    return;
  }
  const end = endOf(start, laps, points);
  const sportAsWritten = cleanName(activity.attributes.get("Sport"));
  const activityType = activityTypeFromName(sportAsWritten);
  const provenance = provenanceOf(activity, author);
  const route = routeOf(points);
  const fromPoints = heartRateSummary(points);
  const workout: WorkoutRecord = {
    activity_type: activityType,
    start_date: start,
    end_date: end,
    duration_seconds: sumOf(laps, (l) => l.totalTimeSeconds) ?? null,
    distance_meters: sumOf(laps, (l) => l.distanceMeters) ?? distanceFromPoints(points) ?? routeDistanceMeters(route) ?? null,
    total_energy_kcal: sumOf(laps, (l) => l.calories) ?? null,
    average_heart_rate: weightedAverageHeartRate(laps) ?? fromPoints.average ?? null,
    max_heart_rate: maxOf(laps, (l) => l.maxHeartRate) ?? fromPoints.max ?? null,
    elevation_gain_meters: elevationGainMeters(points) ?? null,
    steps: sumOf(laps, (l) => l.steps) ?? null,
    ...provenance,
    external_id: `${context.fileId}:activity:${index}`,
    metadata: {
      file_format: "tcx",
      ...(context.fileName ? { file_name: context.fileName } : {}),
      activity_index: index,
      ...(sportAsWritten ? { tcx_sport: sportAsWritten } : {}),
      laps: laps.map((l) => l.metadata),
    },
    locator,
    route,
  };
  out.workouts.push(workout);
  out.quantitySamples.push(...pointSamples(points, activityType, provenance));
}

/** A `<Trackpoint>` (its time required); position, altitude, distance, heart rate, cadence and speed when given. */
function trackpointOf(trackpoint: XmlElement, locator: string): TrackPoint | undefined {
  const timestamp = parseXmlTime(childText(trackpoint, NS, "Time"));
  if (!timestamp) return undefined;
  const position = childOf(trackpoint, NS, "Position");
  const latitude = numberOf(childText(position, NS, "LatitudeDegrees"));
  const longitude = numberOf(childText(position, NS, "LongitudeDegrees"));
  const tpx = childOf(childOf(trackpoint, NS, "Extensions"), AX, "TPX");
  const runCadence = numberOf(childText(tpx, AX, "RunCadence"));
  return {
    timestamp,
    ...(latitude !== undefined && longitude !== undefined ? { latitude, longitude } : {}),
    altitude: numberOf(childText(trackpoint, NS, "AltitudeMeters")),
    distance: amountOf(childText(trackpoint, NS, "DistanceMeters")),
    heartRate: heartRateOf(childText(childOf(trackpoint, NS, "HeartRateBpm"), NS, "Value")),
    cadence: runCadence ?? numberOf(childText(trackpoint, NS, "Cadence")),
    speed: amountOf(childText(tpx, AX, "Speed")),
    locator,
  };
}

function lapOf(lap: XmlElement): Lap {
  const start = parseXmlTime(lap.attributes.get("StartTime"));
  const lx = childOf(childOf(lap, NS, "Extensions"), AX, "LX");
  const fields = {
    totalTimeSeconds: amountOf(childText(lap, NS, "TotalTimeSeconds")),
    distanceMeters: amountOf(childText(lap, NS, "DistanceMeters")),
    calories: amountOf(childText(lap, NS, "Calories")),
    averageHeartRate: heartRateOf(childText(childOf(lap, NS, "AverageHeartRateBpm"), NS, "Value")),
    maxHeartRate: heartRateOf(childText(childOf(lap, NS, "MaximumHeartRateBpm"), NS, "Value")),
    steps: amountOf(childText(lx, AX, "Steps")),
  };
  const metadata: Record<string, unknown> = {
    start_date: start?.toISOString() ?? null,
    total_time_seconds: fields.totalTimeSeconds ?? null,
    distance_meters: fields.distanceMeters ?? null,
    calories_kcal: fields.calories ?? null,
    average_heart_rate: fields.averageHeartRate ?? null,
    max_heart_rate: fields.maxHeartRate ?? null,
    maximum_speed: amountOf(childText(lap, NS, "MaximumSpeed")) ?? null,
    intensity: cleanName(childText(lap, NS, "Intensity")) ?? null,
    trigger_method: cleanName(childText(lap, NS, "TriggerMethod")) ?? null,
  };
  if (fields.steps !== undefined) metadata.steps = fields.steps;
  const averageRunCadence = amountOf(childText(lx, AX, "AvgRunCadence"));
  if (averageRunCadence !== undefined) metadata.average_run_cadence = averageRunCadence;
  return { start, ...fields, metadata };
}

/** The later of the last trackpoint and the last lap's start plus its time; never before the start. */
function endOf(start: Date, laps: readonly Lap[], points: readonly TrackPoint[]): Date {
  let end = start.getTime();
  const lastPoint = points.at(-1);
  if (lastPoint) end = Math.max(end, lastPoint.timestamp.getTime());
  for (const lap of laps) {
    if (lap.start && lap.totalTimeSeconds !== undefined) end = Math.max(end, lap.start.getTime() + lap.totalTimeSeconds * 1000);
  }
  return new Date(end);
}

/** The device (`Creator` of type Device_t) and the application (`Author`) that wrote the file. */
function provenanceOf(activity: XmlElement, author: XmlElement | undefined): Provenance {
  const creator = childOf(activity, NS, "Creator");
  const isDevice = creator?.attributes.get(`{${XSI_NAMESPACE}}type`) === "Device_t";
  const device = isDevice ? (cleanName(childText(creator, NS, "Name")) ?? null) : null;
  const authorName = cleanName(childText(author, NS, "Name"));
  const partNumber = childText(author, NS, "PartNumber");
  // Garmin's part numbers start with 006- (Garmin Connect writes 006-D2449-00).
  const source = vendorFromName(device ?? undefined) ?? vendorFromName(authorName) ?? (partNumber?.startsWith("006-") ? "garmin" : null);
  return { source, device, on_body: isWristWorn(device), source_name: authorName ?? null };
}

/** The sum over the laps that give the value; undefined when none does. */
function sumOf(laps: readonly Lap[], value: (lap: Lap) => number | undefined): number | undefined {
  let sum: number | undefined;
  for (const lap of laps) {
    const v = value(lap);
    if (v !== undefined) sum = (sum ?? 0) + v;
  }
  return sum === undefined ? undefined : round(sum, 3);
}

function maxOf(laps: readonly Lap[], value: (lap: Lap) => number | undefined): number | undefined {
  let max: number | undefined;
  for (const lap of laps) {
    const v = value(lap);
    if (v !== undefined) max = max === undefined ? v : Math.max(max, v);
  }
  return max;
}

/** The laps' average heart rates weighted by their time (to 0.1); undefined when no lap gives both. */
function weightedAverageHeartRate(laps: readonly Lap[]): number | undefined {
  let weighted = 0;
  let seconds = 0;
  for (const lap of laps) {
    if (lap.averageHeartRate === undefined || lap.totalTimeSeconds === undefined) continue;
    weighted += lap.averageHeartRate * lap.totalTimeSeconds;
    seconds += lap.totalTimeSeconds;
  }
  return seconds > 0 ? round(weighted / seconds, 1) : undefined;
}
