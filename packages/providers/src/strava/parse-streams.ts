// Payload `strava-activity-streams`: `{activity, streams}`, the SummaryActivity of the list and
// the answer of GET /activities/{id}/streams?key_by_type=true for it. The activity is needed
// to place the streams' `time` offsets (seconds from the start) and to name the workout.

import type { QuantitySampleRecord, RoutePointRecord } from "@svc/core";
import { emptyParsedRecords, type ParsedRecords } from "@svc/core";
import { cadenceKind } from "../activity-files/activity-types.ts";
import { readStravaActivity, type StravaActivity } from "./activity.ts";
import { isObject, numberOf } from "./json.ts";

/** The payload `pull` stores for one activity. */
export interface StravaStreamsPayload {
  activity: unknown;
  streams: unknown;
}

type Streams = Map<string, unknown[]>;

/**
 * `key_by_type=true` answers `{time: {data: [...]}, heartrate: {data: [...]}, ...}`; without it
 * Strava answers `[{type: "time", data: [...]}, ...]`. Both are read.
 */
function streamsOf(raw: unknown): Streams {
  const streams: Streams = new Map();
  const add = (type: unknown, stream: unknown) => {
    if (typeof type === "string" && isObject(stream) && Array.isArray(stream.data)) streams.set(type, stream.data);
  };
  if (Array.isArray(raw)) for (const stream of raw) add(isObject(stream) ? stream.type : undefined, stream);
  else if (isObject(raw)) for (const [type, stream] of Object.entries(raw)) add(type, stream);
  return streams;
}

/**
 * The activity's workout with its route (points with a position; an empty route when the
 * activity has none, e.g. on a trainer), and instant samples at each point's time:
 * `heart_rate` (bpm), `step_cadence` (Strava's run cadence counts one foot: steps are twice
 * it) or `cycling_cadence` (rpm), and `running_power` (runs) or `cycling_power` (rides, W). Zero readings
 * are no readings.
 */
export function parseStravaStreams(payload: unknown): ParsedRecords {
  if (!isObject(payload) || !("activity" in payload) || !("streams" in payload)) {
    throw new Error("strava-activity-streams: the payload is not {activity, streams}");
  }
  const out = emptyParsedRecords();
  const activity = readStravaActivity(payload.activity);
  if ("reason" in activity) {
    out.rejected.push({ recordKind: "workout", locator: "activity", reason: activity.reason });
    return out;
  }
  const streams = streamsOf(payload.streams);
  const times = streams.get("time") ?? [];
  const latlng = streams.get("latlng");
  const route: RoutePointRecord[] = [];
  let unreadable = 0;
  times.forEach((offset, i) => {
    const seconds = numberOf(offset);
    if (seconds === undefined || seconds < 0) {
      unreadable++;
      return;
    }
    const timestamp = new Date(activity.start.getTime() + seconds * 1000);
    const position = latlng?.[i];
    if (Array.isArray(position) && numberOf(position[0]) !== undefined && numberOf(position[1]) !== undefined) {
      route.push({
        timestamp,
        latitude: position[0] as number,
        longitude: position[1] as number,
        altitude: numberOf(streams.get("altitude")?.[i]) ?? null,
        heart_rate: positive(streams.get("heartrate")?.[i]) ?? null,
      });
    }
    out.quantitySamples.push(...pointSamples(activity, streams, i, timestamp));
  });
  if (unreadable > 0) {
    out.rejected.push({ recordKind: "workout_route_point", locator: `activity ${activity.id} streams`, reason: `${unreadable} time offset(s) are not numbers of at least 0` });
  }
  out.workouts.push({ ...activity.workout, route });
  return out;
}

const positive = (value: unknown): number | undefined => {
  const n = numberOf(value);
  return n !== undefined && n > 0 ? n : undefined;
};

function pointSamples(activity: StravaActivity, streams: Streams, i: number, timestamp: Date): QuantitySampleRecord[] {
  const base = {
    start_date: timestamp,
    source: activity.source,
    device: activity.device,
    timezone: activity.timezone,
    locator: `activity ${activity.id} streams[${i}]`,
  };
  const samples: QuantitySampleRecord[] = [];
  const heartRate = positive(streams.get("heartrate")?.[i]);
  if (heartRate !== undefined) samples.push({ ...base, type: "heart_rate", value: heartRate, unit: "count/min", on_body: true });
  const kind = cadenceKind(activity.activityType);
  const cadence = positive(streams.get("cadence")?.[i]);
  if (cadence !== undefined && kind === "steps") samples.push({ ...base, type: "step_cadence", value: cadence * 2, unit: "count/min" });
  if (cadence !== undefined && kind === "pedal") samples.push({ ...base, type: "cycling_cadence", value: cadence, unit: "count/min" });
  const watts = positive(streams.get("watts")?.[i]);
  if (watts !== undefined && activity.activityType === "running") samples.push({ ...base, type: "running_power", value: watts, unit: "W" });
  if (watts !== undefined && kind === "pedal") samples.push({ ...base, type: "cycling_power", value: watts, unit: "W" });
  return samples;
}
