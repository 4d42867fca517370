import type { Database } from "@svc/db";
import type { DbClient } from "../platform/index.ts";
import type { LegacyMove } from "./legacy-moves.ts";
import { lockUserRrIntervals, moveLegacyRrIntervals, nextLegacyRrSeries } from "./heartbeats/heartbeat-repository.ts";
import { lockUserRoutePoints, moveLegacyRoutePoints, nextLegacyRouteWorkout } from "./workouts/workout-route-repository.ts";

/**
 * Moves RR intervals and route points stored one row each before the upgrade to chunks
 * (rr_intervals_legacy, workout_route_points_legacy) into chunks, one series or workout a
 * batch, laid out as the writers lay them out. Until then reads take them from the legacy
 * tables, and a writer moves the rows of each series or workout it writes first.
 */

/** Generous: a series holds at most 200,000 intervals; a route has no bound. */
const MOVE_TIMEOUT_MS = 120_000;

/**
 * One parent's rows a batch, under the user's lock of the kind. A parent found before the lock
 * may have been moved by a writer meanwhile (0 rows): the next one is taken then.
 */
async function moveNextParent(
  db: Database,
  next: (db: DbClient) => Promise<{ userId: string; parentId: string } | null>,
  lock: (tx: DbClient, userId: string) => Promise<void>,
  move: (tx: DbClient, userId: string, parentId: string) => Promise<number>,
): Promise<number> {
  for (let parent = await next(db); parent; parent = await next(db)) {
    const { userId, parentId } = parent;
    const moved = await db.$transaction(
      async (tx) => {
        await lock(tx, userId);
        return move(tx, userId, parentId);
      },
      { timeout: MOVE_TIMEOUT_MS },
    );
    if (moved > 0) return moved;
  }
  return 0;
}

export const rrIntervalMove: LegacyMove = {
  table: "rr_intervals_legacy",
  moveBatch: (db) =>
    moveNextParent(
      db,
      async (db) => {
        const next = await nextLegacyRrSeries(db);
        return next && { userId: next.userId, parentId: next.seriesId };
      },
      lockUserRrIntervals,
      moveLegacyRrIntervals,
    ),
};

export const routePointMove: LegacyMove = {
  table: "workout_route_points_legacy",
  moveBatch: (db) =>
    moveNextParent(
      db,
      async (db) => {
        const next = await nextLegacyRouteWorkout(db);
        return next && { userId: next.userId, parentId: next.workoutId };
      },
      lockUserRoutePoints,
      moveLegacyRoutePoints,
    ),
};

/** Both kinds, registered as one element of LEGACY_MOVES. */
export const ROW_CHUNK_MOVES: readonly LegacyMove[] = [rrIntervalMove, routePointMove];
