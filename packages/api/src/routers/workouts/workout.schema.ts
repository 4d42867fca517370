import { z } from "zod";
import { ZOutranked, ZProvenance } from "../../schemas/records.ts";

export const ZTrackSummary = z
  .object({
    point_count: z.number().int().describe("Number of stored route points."),
    distance_meters: z.number().describe("Sum of great-circle (haversine) distances between consecutive points, meters."),
    elevation_gain_meters: z.number().nullable().describe("Sum of rises between consecutive points with an altitude, meters; null when fewer than two have one."),
    elevation_loss_meters: z.number().nullable().describe("Sum of drops between consecutive points with an altitude, meters; null when fewer than two have one."),
    min_latitude: z.number().describe("Southern edge of the track's bounding box, degrees."),
    max_latitude: z.number().describe("Northern edge of the track's bounding box, degrees."),
    min_longitude: z.number().describe("Western edge of the track's bounding box, degrees."),
    max_longitude: z.number().describe("Eastern edge of the track's bounding box, degrees."),
    first_point_at: z.iso.datetime().describe("Time of the first route point."),
    last_point_at: z.iso.datetime().describe("Time of the last route point."),
  })
  .describe("Summary of the workout's GPS route, computed by svc from its points.");

export const ZWorkout = z.object({
  id: z.uuid().describe("The workout's id; its route is at /v1/users/{id}/workouts/{workout_id}/route."),
  activity_type: z.string().describe("snake_case activity, e.g. `running`, `cycling`, `swimming`, `strength_training`."),
  name: z.string().nullable().describe("The workout's title as the provider gave it."),
  start_date: z.iso.datetime().describe("When the workout started."),
  end_date: z.iso.datetime().describe("When the workout ended, exclusive."),
  timezone: z.string().nullable().describe("The IANA zone or ±hh:mm offset where it took place, when known."),
  duration_seconds: z.number().describe("Duration (moving time when the provider gives one), seconds; end_date - start_date otherwise."),
  distance_meters: z.number().nullable().describe("Distance covered as the provider reported it, meters."),
  active_energy_kcal: z.number().nullable().describe("Active energy burned, kcal."),
  total_energy_kcal: z.number().nullable().describe("Total (active + resting) energy burned, kcal."),
  average_heart_rate: z.number().nullable().describe("Average heart rate, count/min."),
  max_heart_rate: z.number().nullable().describe("Highest heart rate, count/min."),
  elevation_gain_meters: z.number().nullable().describe("Elevation gain as the provider reported it, meters."),
  steps: z.number().nullable().describe("Steps taken during the workout."),
  source_name: z.string().nullable().describe("The app or device name as the source reported it."),
  external_id: z.string().nullable().describe("The provider's id of the workout."),
  metadata: z.record(z.string(), z.unknown()).describe("Provider fields as sent."),
  ...ZProvenance,
  route_summary: ZTrackSummary.nullable().describe("Summary of the GPS route; null when the workout has no route."),
  outranked: ZOutranked,
});

export const ZRoutePoint = z.object({
  timestamp: z.iso.datetime().describe("When the position was recorded."),
  latitude: z.number().describe("Degrees, -90 to 90 (WGS 84)."),
  longitude: z.number().describe("Degrees, -180 to 180 (WGS 84)."),
  altitude_meters: z.number().nullable().describe("Altitude above sea level, meters."),
  speed_meters_per_second: z.number().nullable().describe("Speed, meters per second."),
  heart_rate: z.number().nullable().describe("Heart rate at that moment, count/min."),
  accuracy_meters: z.number().nullable().describe("Horizontal accuracy of the position, meters."),
});
