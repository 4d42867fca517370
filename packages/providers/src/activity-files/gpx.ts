// GPX 1.1 tracks as workouts: one workout per `<trk>` (all its segments), with its route,
// and heart rate and cadence from Garmin's TrackPointExtension (v1 or v2, by namespace URI).

import type { WorkoutRecord } from "@svc/core";
import { emptyParsedRecords, type ParsedRecords } from "../parsed-records.ts";
import { activityTypeFromName, activityTypeFromStravaGpx } from "./activity-types.ts";
import { cleanName, isWristWorn, vendorFromName } from "./devices.ts";
import {
  elevationGainMeters,
  fileRejection,
  heartRateOf,
  heartRateSummary,
  numberOf,
  onePointPerTime,
  pointSamples,
  routeDistanceMeters,
  routeOf,
  type FileContext,
  type Provenance,
  type TrackPoint,
} from "./shared.ts";
import { childOf, childrenOf, childText, GPX_NAMESPACES, parseXmlTime, TRACK_POINT_EXTENSION_NAMESPACES, type XmlElement } from "./xml.ts";

/** Records from a GPX document whose root is `<gpx>` in the GPX 1.1 namespace. */
export function parseGpx(root: XmlElement, context: FileContext): ParsedRecords {
  const out = emptyParsedRecords();
  const creator = cleanName(root.attributes.get("creator"));
  const provenance: Provenance = {
    source: vendorFromName(creator),
    device: null,
    on_body: isWristWorn(creator ?? null),
    source_name: creator ?? null,
  };
  const tracks = childrenOf(root, GPX_NAMESPACES, "trk");
  if (tracks.length === 0) {
    out.rejected.push(fileRejection("the GPX file has no track (<trk>); routes and waypoints are not workouts"));
    return out;
  }
  tracks.forEach((track, index) => readTrack(track, index, context, provenance, out));
  return out;
}

function readTrack(track: XmlElement, index: number, context: FileContext, provenance: Provenance, out: ParsedRecords): void {
  const locator = `trk[${index}]`;
  const read: TrackPoint[] = [];
  let untimed = 0;
  childrenOf(track, GPX_NAMESPACES, "trkseg").forEach((segment, s) => {
    childrenOf(segment, GPX_NAMESPACES, "trkpt").forEach((trkpt, p) => {
      const point = trackPointOf(trkpt, `${locator}/trkseg[${s}]/trkpt[${p}]`);
      if (point) read.push(point);
      else untimed++;
    });
  });
  if (untimed > 0) {
    out.rejected.push({ recordKind: "workout_route_point", locator, reason: `${untimed} track point(s) without a valid time and position were left out` });
  }
  const points = onePointPerTime(read);
  const first = points[0];
  const last = points.at(-1);
  if (!first || !last) {
    out.rejected.push({ recordKind: "workout", locator, reason: "the track has no point with a valid time and position" });
    return;
  }
  const typeAsWritten = cleanName(childText(track, GPX_NAMESPACES, "type"));
  const activityType = provenance.source === "strava" ? activityTypeFromStravaGpx(typeAsWritten) : activityTypeFromName(typeAsWritten);
  const route = routeOf(points);
  const heartRate = heartRateSummary(points);
  const workout: WorkoutRecord = {
    activity_type: activityType,
    name: cleanName(childText(track, GPX_NAMESPACES, "name")) ?? null,
    start_date: first.timestamp,
    end_date: last.timestamp,
    distance_meters: routeDistanceMeters(route) ?? null,
    average_heart_rate: heartRate.average ?? null,
    max_heart_rate: heartRate.max ?? null,
    elevation_gain_meters: elevationGainMeters(points) ?? null,
    ...provenance,
    external_id: `${context.fileId}:trk:${index}`,
    metadata: {
      file_format: "gpx",
      ...(context.fileName ? { file_name: context.fileName } : {}),
      track_index: index,
      ...(typeAsWritten ? { gpx_type: typeAsWritten } : {}),
    },
    locator,
    route,
  };
  out.workouts.push(workout);
  out.quantitySamples.push(...pointSamples(points, activityType, provenance));
}

/** A `<trkpt>` with its time and position (both required), elevation and extension readings. */
function trackPointOf(trkpt: XmlElement, locator: string): TrackPoint | undefined {
  const timestamp = parseXmlTime(childText(trkpt, GPX_NAMESPACES, "time"));
  const latitude = numberOf(trkpt.attributes.get("lat"));
  const longitude = numberOf(trkpt.attributes.get("lon"));
  if (!timestamp || latitude === undefined || longitude === undefined) return undefined;
  const extension = trackPointExtensionOf(trkpt);
  return {
    timestamp,
    latitude,
    longitude,
    altitude: numberOf(childText(trkpt, GPX_NAMESPACES, "ele")),
    heartRate: heartRateOf(childText(extension, TRACK_POINT_EXTENSION_NAMESPACES, "hr")),
    cadence: numberOf(childText(extension, TRACK_POINT_EXTENSION_NAMESPACES, "cad")),
    speed: numberOf(childText(extension, TRACK_POINT_EXTENSION_NAMESPACES, "speed")),
    locator,
  };
}

/** `<extensions><TrackPointExtension>` of Garmin's v1 or v2 namespace, whatever its prefix. */
function trackPointExtensionOf(trkpt: XmlElement): XmlElement | undefined {
  const extensions = childOf(trkpt, GPX_NAMESPACES, "extensions");
  return childOf(extensions, TRACK_POINT_EXTENSION_NAMESPACES, "TrackPointExtension");
}
