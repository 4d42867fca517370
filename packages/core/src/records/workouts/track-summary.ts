/**
 * The summary of a workout's GPS track, computed from its route points in time order:
 * - distance: the sum of great-circle (haversine) distances between consecutive points on a
 *   sphere of the Earth's mean radius (6 371 008.8 m); altitude is not included.
 * - elevation gain and loss: the sums of rises and drops from one point with an altitude to
 *   the next one with an altitude (points without one are skipped; no smoothing); null when
 *   fewer than two points have one.
 * - the bounding box of latitudes and longitudes, and the first and last point's time.
 */

export interface TrackPoint {
  timestamp: Date;
  latitude: number;
  longitude: number;
  altitudeMeters: number | null;
}

export interface TrackSummary {
  pointCount: number;
  distanceMeters: number;
  elevationGainMeters: number | null;
  elevationLossMeters: number | null;
  minLatitude: number;
  maxLatitude: number;
  minLongitude: number;
  maxLongitude: number;
  firstPointAt: Date;
  lastPointAt: Date;
}

export const EARTH_MEAN_RADIUS_METERS = 6_371_008.8;

const radians = (degrees: number) => (degrees * Math.PI) / 180;

/** Great-circle distance in meters between two points given in degrees. */
export function haversineMeters(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const dLat = radians(b.latitude - a.latitude);
  const dLon = radians(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(radians(a.latitude)) * Math.cos(radians(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_MEAN_RADIUS_METERS * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** The summary of points sorted by timestamp; null for an empty track. */
export function summarizeTrack(points: readonly TrackPoint[]): TrackSummary | null {
  const first = points[0];
  const last = points.at(-1);
  if (!first || !last) return null;
  let distance = 0;
  let gain = 0;
  let loss = 0;
  let withAltitude = 0;
  let previousAltitude: number | null = null;
  let [minLat, maxLat, minLon, maxLon] = [first.latitude, first.latitude, first.longitude, first.longitude];
  points.forEach((point, i) => {
    const previous = points[i - 1];
    if (previous) distance += haversineMeters(previous, point);
    minLat = Math.min(minLat, point.latitude);
    maxLat = Math.max(maxLat, point.latitude);
    minLon = Math.min(minLon, point.longitude);
    maxLon = Math.max(maxLon, point.longitude);
    if (point.altitudeMeters !== null) {
      withAltitude++;
      if (previousAltitude !== null) {
        const delta = point.altitudeMeters - previousAltitude;
        if (delta > 0) gain += delta;
        else loss -= delta;
      }
      previousAltitude = point.altitudeMeters;
    }
  });
  return {
    pointCount: points.length,
    distanceMeters: distance,
    elevationGainMeters: withAltitude >= 2 ? gain : null,
    elevationLossMeters: withAltitude >= 2 ? loss : null,
    minLatitude: minLat,
    maxLatitude: maxLat,
    minLongitude: minLon,
    maxLongitude: maxLon,
    firstPointAt: first.timestamp,
    lastPointAt: last.timestamp,
  };
}
