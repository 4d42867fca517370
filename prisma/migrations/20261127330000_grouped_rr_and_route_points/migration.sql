-- RR intervals and workout route points, one row each until now (about 237 and 204 bytes
-- a row with its indexes), are grouped: one row per up to 4096 consecutive rows of a series
-- or workout, each field an array, each time an offset in milliseconds from the chunk's
-- first (docs/decisions.md, "Storage of RR intervals and route points"). A new chunk starts
-- every 4096 rows and wherever the time passes a whole day since the series' or workout's
-- first row, as packages/core/src/records/row-chunks.ts does. The old tables are renamed
-- `rr_intervals_legacy` and `workout_route_points_legacy` with their rows, keys and indexes
-- (their names take the suffix too); the job data-moves moves the rows into the chunks while
-- svc serves, and reads take the rows not yet moved from there (docs/decisions.md, "Online
-- data moves"). The ids of the old rows were never shown; the chunks do not keep them.

-- CreateTable
CREATE TABLE "rr_interval_chunks" (
    "user_id" UUID NOT NULL,
    "series_id" UUID NOT NULL,
    "chunk_no" INTEGER NOT NULL,
    "first_at" TIMESTAMPTZ(3) NOT NULL,
    "last_at" TIMESTAMPTZ(3) NOT NULL,
    "interval_count" INTEGER NOT NULL,
    "offsets_ms" INTEGER[],
    "interval_ms" DOUBLE PRECISION[],
    "preceded_by_gap" BOOLEAN[],

    CONSTRAINT "rr_interval_chunks_pkey" PRIMARY KEY ("user_id","series_id","chunk_no")
);

-- CreateTable
CREATE TABLE "workout_route_chunks" (
    "user_id" UUID NOT NULL,
    "workout_id" UUID NOT NULL,
    "chunk_no" INTEGER NOT NULL,
    "first_at" TIMESTAMPTZ(3) NOT NULL,
    "last_at" TIMESTAMPTZ(3) NOT NULL,
    "point_count" INTEGER NOT NULL,
    "offsets_ms" INTEGER[],
    "latitude" DOUBLE PRECISION[],
    "longitude" DOUBLE PRECISION[],
    "altitude_meters" DOUBLE PRECISION[],
    "speed" DOUBLE PRECISION[],
    "heart_rate" DOUBLE PRECISION[],
    "accuracy_meters" DOUBLE PRECISION[],

    CONSTRAINT "workout_route_chunks_pkey" PRIMARY KEY ("user_id","workout_id","chunk_no")
);

-- The old tables, renamed with their keys, indexes and id sequences.
ALTER TABLE "rr_intervals" RENAME TO "rr_intervals_legacy";
ALTER TABLE "rr_intervals_legacy" RENAME CONSTRAINT "rr_intervals_pkey" TO "rr_intervals_legacy_pkey";
ALTER TABLE "rr_intervals_legacy" RENAME CONSTRAINT "rr_intervals_user_id_series_id_fkey" TO "rr_intervals_legacy_user_id_series_id_fkey";
ALTER INDEX "rr_intervals_user_id_timestamp_id_idx" RENAME TO "rr_intervals_legacy_user_id_timestamp_id_idx";
ALTER INDEX "rr_intervals_user_id_series_id_timestamp_key" RENAME TO "rr_intervals_legacy_user_id_series_id_timestamp_key";
ALTER SEQUENCE "rr_intervals_id_seq" RENAME TO "rr_intervals_legacy_id_seq";

ALTER TABLE "workout_route_points" RENAME TO "workout_route_points_legacy";
ALTER TABLE "workout_route_points_legacy" RENAME CONSTRAINT "workout_route_points_pkey" TO "workout_route_points_legacy_pkey";
ALTER TABLE "workout_route_points_legacy" RENAME CONSTRAINT "workout_route_points_user_id_workout_id_fkey" TO "workout_route_points_legacy_user_id_workout_id_fkey";
ALTER INDEX "workout_route_points_user_id_workout_id_timestamp_key" RENAME TO "workout_route_points_legacy_user_id_workout_id_timestamp_key";
ALTER SEQUENCE "workout_route_points_id_seq" RENAME TO "workout_route_points_legacy_id_seq";

-- CreateIndex
CREATE INDEX "rr_interval_chunks_user_id_last_at_idx" ON "rr_interval_chunks"("user_id", "last_at");

-- AddForeignKey
ALTER TABLE "rr_interval_chunks" ADD CONSTRAINT "rr_interval_chunks_user_id_series_id_fkey" FOREIGN KEY ("user_id", "series_id") REFERENCES "heartbeat_series"("user_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "workout_route_chunks" ADD CONSTRAINT "workout_route_chunks_user_id_workout_id_fkey" FOREIGN KEY ("user_id", "workout_id") REFERENCES "workouts"("user_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;
