-- RR intervals and workout route points, one row each until now (about 237 and 204 bytes
-- a row with its indexes), are grouped: one row per up to 4096 consecutive rows of a series
-- or workout, each field an array, each time an offset in milliseconds from the chunk's
-- first (docs/decisions.md, "Storage of RR intervals and route points"). A new chunk starts
-- every 4096 rows and wherever the time passes a whole day since the series' or workout's
-- first row, as packages/core/src/records/row-chunks.ts does. The ids of the old rows were
-- never shown and are not kept. Stop svc while it runs (docs/deployment.md, "Migrations and
-- upgrading").

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

-- Each row's chunk: its position in its series (by time) over 4096, and its whole days
-- since the series' first row; chunks numbered in that order. Offsets from the chunk's first.
INSERT INTO "rr_interval_chunks" ("user_id", "series_id", "chunk_no", "first_at", "last_at", "interval_count", "offsets_ms",
  "interval_ms", "preceded_by_gap")
SELECT "user_id", "series_id", "chunk_no", "first_at", max("timestamp"), count(*)::int,
  array_agg((extract(epoch FROM "timestamp" - "first_at") * 1000)::int ORDER BY "timestamp"),
  array_agg("interval_ms" ORDER BY "timestamp"), array_agg("preceded_by_gap" ORDER BY "timestamp")
FROM (
  SELECT k.*, min("timestamp") OVER (PARTITION BY "user_id", "series_id", "chunk_no") AS "first_at"
  FROM (
    SELECT p.*, dense_rank() OVER (PARTITION BY "user_id", "series_id" ORDER BY "slab", "span") - 1 AS "chunk_no"
    FROM (
      SELECT r."user_id", r."series_id", r."timestamp", r."interval_ms", r."preceded_by_gap",
        (row_number() OVER (PARTITION BY r."user_id", r."series_id" ORDER BY r."timestamp") - 1) / 4096 AS "slab",
        floor(extract(epoch FROM r."timestamp" - min(r."timestamp") OVER (PARTITION BY r."user_id", r."series_id")) / 86400) AS "span"
      FROM "rr_intervals" r
    ) p
  ) k
) f
GROUP BY "user_id", "series_id", "chunk_no", "first_at";

INSERT INTO "workout_route_chunks" ("user_id", "workout_id", "chunk_no", "first_at", "last_at", "point_count", "offsets_ms",
  "latitude", "longitude", "altitude_meters", "speed", "heart_rate", "accuracy_meters")
SELECT "user_id", "workout_id", "chunk_no", "first_at", max("timestamp"), count(*)::int,
  array_agg((extract(epoch FROM "timestamp" - "first_at") * 1000)::int ORDER BY "timestamp"),
  array_agg("latitude" ORDER BY "timestamp"), array_agg("longitude" ORDER BY "timestamp"),
  array_agg("altitude_meters" ORDER BY "timestamp"), array_agg("speed" ORDER BY "timestamp"),
  array_agg("heart_rate" ORDER BY "timestamp"), array_agg("accuracy_meters" ORDER BY "timestamp")
FROM (
  SELECT k.*, min("timestamp") OVER (PARTITION BY "user_id", "workout_id", "chunk_no") AS "first_at"
  FROM (
    SELECT p.*, dense_rank() OVER (PARTITION BY "user_id", "workout_id" ORDER BY "slab", "span") - 1 AS "chunk_no"
    FROM (
      SELECT r."user_id", r."workout_id", r."timestamp", r."latitude", r."longitude", r."altitude_meters", r."speed",
        r."heart_rate", r."accuracy_meters",
        (row_number() OVER (PARTITION BY r."user_id", r."workout_id" ORDER BY r."timestamp") - 1) / 4096 AS "slab",
        floor(extract(epoch FROM r."timestamp" - min(r."timestamp") OVER (PARTITION BY r."user_id", r."workout_id")) / 86400) AS "span"
      FROM "workout_route_points" r
    ) p
  ) k
) f
GROUP BY "user_id", "workout_id", "chunk_no", "first_at";

-- DropTable
DROP TABLE "rr_intervals";

-- DropTable
DROP TABLE "workout_route_points";

-- CreateIndex
CREATE INDEX "rr_interval_chunks_user_id_last_at_idx" ON "rr_interval_chunks"("user_id", "last_at");

-- AddForeignKey
ALTER TABLE "rr_interval_chunks" ADD CONSTRAINT "rr_interval_chunks_user_id_series_id_fkey" FOREIGN KEY ("user_id", "series_id") REFERENCES "heartbeat_series"("user_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- AddForeignKey
ALTER TABLE "workout_route_chunks" ADD CONSTRAINT "workout_route_chunks_user_id_workout_id_fkey" FOREIGN KEY ("user_id", "workout_id") REFERENCES "workouts"("user_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;
