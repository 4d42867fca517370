-- The tables that hold RR intervals and route points not yet moved into their chunks
-- (docs/decisions.md, "Online data moves"). The migration *_grouped_rr_and_route_points
-- renames the old tables to these; a database that applied its earlier text (which moved the
-- rows itself and dropped the old tables) gets them here, empty and of the same shape, so
-- every database reads and moves the same way.

CREATE TABLE IF NOT EXISTS "rr_intervals_legacy" (
    "id" BIGSERIAL NOT NULL,
    "series_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "timestamp" TIMESTAMPTZ(3) NOT NULL,
    "interval_ms" DOUBLE PRECISION NOT NULL,
    "preceded_by_gap" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "rr_intervals_legacy_pkey" PRIMARY KEY ("user_id", "id"),
    CONSTRAINT "rr_intervals_legacy_user_id_series_id_fkey" FOREIGN KEY ("user_id", "series_id") REFERENCES "heartbeat_series"("user_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION
);

CREATE INDEX IF NOT EXISTS "rr_intervals_legacy_user_id_timestamp_id_idx" ON "rr_intervals_legacy"("user_id", "timestamp", "id");
CREATE UNIQUE INDEX IF NOT EXISTS "rr_intervals_legacy_user_id_series_id_timestamp_key" ON "rr_intervals_legacy"("user_id", "series_id", "timestamp");

CREATE TABLE IF NOT EXISTS "workout_route_points_legacy" (
    "id" BIGSERIAL NOT NULL,
    "workout_id" UUID NOT NULL,
    "timestamp" TIMESTAMPTZ(3) NOT NULL,
    "latitude" DOUBLE PRECISION NOT NULL,
    "longitude" DOUBLE PRECISION NOT NULL,
    "altitude_meters" DOUBLE PRECISION,
    "speed" DOUBLE PRECISION,
    "heart_rate" DOUBLE PRECISION,
    "accuracy_meters" DOUBLE PRECISION,
    "user_id" UUID NOT NULL,

    CONSTRAINT "workout_route_points_legacy_pkey" PRIMARY KEY ("user_id", "id"),
    CONSTRAINT "workout_route_points_legacy_user_id_workout_id_fkey" FOREIGN KEY ("user_id", "workout_id") REFERENCES "workouts"("user_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION
);

CREATE UNIQUE INDEX IF NOT EXISTS "workout_route_points_legacy_user_id_workout_id_timestamp_key" ON "workout_route_points_legacy"("user_id", "workout_id", "timestamp");
