import { AppError, type DbClient, type Page, parseTimeWindow, toPage } from "../../platform/index.ts";
import { decodeAfterTime, decodeAfterUuid } from "../record-cursors.ts";
import {
  findWorkoutOfUser,
  selectMergedWorkouts,
  selectWorkouts,
  WORKOUT_TABLE,
  type WorkoutPageQuery,
  type WorkoutRow,
} from "./workout-repository.ts";
import { selectRoutePoints, type RoutePointRow } from "./workout-route-repository.ts";
import { toProvenanceDto } from "../provenance-dto.ts";
import type { RecordView } from "../samples/samples.ts";
import { rankedStreamsOf } from "../merge/source-orders.ts";

export interface TrackSummaryDto {
  point_count: number;
  distance_meters: number;
  elevation_gain_meters: number | null;
  elevation_loss_meters: number | null;
  min_latitude: number;
  max_latitude: number;
  min_longitude: number;
  max_longitude: number;
  first_point_at: string;
  last_point_at: string;
}

export interface WorkoutDto {
  id: string;
  activity_type: string;
  name: string | null;
  start_date: string;
  end_date: string;
  timezone: string | null;
  duration_seconds: number;
  distance_meters: number | null;
  active_energy_kcal: number | null;
  total_energy_kcal: number | null;
  average_heart_rate: number | null;
  max_heart_rate: number | null;
  elevation_gain_meters: number | null;
  steps: number | null;
  source_name: string | null;
  external_id: string | null;
  metadata: Record<string, unknown>;
  provider: string;
  source: string | null;
  device: string | null;
  ingested_at: string;
  route_summary: TrackSummaryDto | null;
  outranked?: Array<{ provider: string; source: string }>;
}

export interface RoutePointDto {
  timestamp: string;
  latitude: number;
  longitude: number;
  altitude_meters: number | null;
  speed_meters_per_second: number | null;
  heart_rate: number | null;
  accuracy_meters: number | null;
}

function toTrackSummary(row: WorkoutRow): TrackSummaryDto | null {
  if (row.ts_point_count === null || row.ts_first_point_at === null || row.ts_last_point_at === null) return null;
  return {
    point_count: row.ts_point_count,
    distance_meters: row.ts_distance_meters ?? 0,
    elevation_gain_meters: row.ts_elevation_gain_meters,
    elevation_loss_meters: row.ts_elevation_loss_meters,
    min_latitude: row.ts_min_latitude ?? 0,
    max_latitude: row.ts_max_latitude ?? 0,
    min_longitude: row.ts_min_longitude ?? 0,
    max_longitude: row.ts_max_longitude ?? 0,
    first_point_at: row.ts_first_point_at.toISOString(),
    last_point_at: row.ts_last_point_at.toISOString(),
  };
}

export const toWorkoutDto = (row: WorkoutRow): WorkoutDto => ({
  id: row.id,
  activity_type: row.activity_type,
  name: row.name,
  start_date: row.start_date.toISOString(),
  end_date: row.end_date.toISOString(),
  timezone: row.timezone,
  duration_seconds: row.duration_seconds,
  distance_meters: row.distance_meters,
  active_energy_kcal: row.active_energy_kcal,
  total_energy_kcal: row.total_energy_kcal,
  average_heart_rate: row.average_heart_rate,
  max_heart_rate: row.max_heart_rate,
  elevation_gain_meters: row.elevation_gain_meters,
  steps: row.steps,
  source_name: row.source_name,
  external_id: row.external_id,
  metadata: row.metadata,
  ...toProvenanceDto(row),
  route_summary: toTrackSummary(row),
  ...(row.outranked && { outranked: row.outranked }),
});

const toRoutePointDto = (row: RoutePointRow): RoutePointDto => ({
  timestamp: row.timestamp.toISOString(),
  latitude: row.latitude,
  longitude: row.longitude,
  altitude_meters: row.altitude_meters,
  speed_meters_per_second: row.speed,
  heart_rate: row.heart_rate,
  accuracy_meters: row.accuracy_meters,
});

/** The metric of workouts in the merged view and the order of sources. */
export const WORKOUT_METRIC = "workout";

/**
 * GET /v1/users/{id}/workouts: workouts ordered by start_date then id, each with its track
 * summary. In the merged view workouts of any activity type match when they share at least
 * half of the shorter one; the `type` filter applies to the workouts kept.
 */
export async function listWorkouts(
  db: DbClient,
  userId: string,
  input: { type?: string | undefined; start?: string | undefined; end?: string | undefined; view: RecordView; cursor?: string | undefined; limit: number },
): Promise<Page<WorkoutDto>> {
  const window = parseTimeWindow(input);
  const after = decodeAfterUuid(input.cursor);
  const query: WorkoutPageQuery = { userId, type: input.type, start: window.start, end: window.end, after, limit: input.limit };
  const rows =
    input.view === "all"
      ? await selectWorkouts(db, query)
      : await selectMergedWorkouts(db, query, await rankedStreamsOf(db, userId, WORKOUT_TABLE, WORKOUT_METRIC));
  return toPage(rows, input.limit, toWorkoutDto, (row) => ({ t: row.start_date.toISOString(), id: row.id }));
}

/** GET /v1/users/{id}/workouts/{workout_id}/route: 404 unless the workout is the user's. */
export async function listWorkoutRoute(
  db: DbClient,
  userId: string,
  workoutId: string,
  input: { start?: string | undefined; end?: string | undefined; cursor?: string | undefined; limit: number },
): Promise<Page<RoutePointDto>> {
  const window = parseTimeWindow(input);
  const after = decodeAfterTime(input.cursor);
  if (!(await findWorkoutOfUser(db, userId, workoutId))) throw new AppError("not_found", "No such workout.");
  const rows = await selectRoutePoints(db, { userId, workoutId, start: window.start, end: window.end, after, limit: input.limit });
  return toPage(rows, input.limit, toRoutePointDto, (row) => ({ t: row.timestamp.toISOString() }));
}
