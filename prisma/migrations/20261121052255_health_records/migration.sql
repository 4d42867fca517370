-- CreateTable
CREATE TABLE "raw_objects" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "format" TEXT NOT NULL,
    "content_type" TEXT NOT NULL,
    "byte_size" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "storage_key" TEXT NOT NULL,
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "processed_at" TIMESTAMPTZ(3),

    CONSTRAINT "raw_objects_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "quantity_samples" (
    "id" BIGSERIAL NOT NULL,
    "user_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "value" DOUBLE PRECISION NOT NULL,
    "unit" TEXT NOT NULL,
    "start_date" TIMESTAMPTZ(3) NOT NULL,
    "end_date" TIMESTAMPTZ(3) NOT NULL,
    "source_name" TEXT,
    "source_bundle_id" TEXT,
    "device_model" TEXT,
    "product_type" TEXT,
    "external_id" TEXT,
    "is_primary_source" BOOLEAN NOT NULL DEFAULT true,
    "was_user_entered" BOOLEAN NOT NULL DEFAULT false,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "provider" TEXT NOT NULL,
    "source" TEXT,
    "source_key" TEXT NOT NULL,
    "device" TEXT,
    "on_body" BOOLEAN NOT NULL DEFAULT false,
    "ingested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "raw_object_id" UUID,
    "dedupe_key" TEXT NOT NULL,

    CONSTRAINT "quantity_samples_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "quantity_sample_streams" (
    "user_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "source_key" TEXT NOT NULL,
    "on_body" BOOLEAN NOT NULL,
    "max_duration_seconds" INTEGER NOT NULL,
    "first_start" TIMESTAMPTZ(3) NOT NULL,
    "last_start" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "quantity_sample_streams_pkey" PRIMARY KEY ("user_id","type","provider","source_key","on_body")
);

-- CreateTable
CREATE TABLE "category_samples" (
    "id" BIGSERIAL NOT NULL,
    "user_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "start_date" TIMESTAMPTZ(3) NOT NULL,
    "end_date" TIMESTAMPTZ(3) NOT NULL,
    "source_name" TEXT,
    "source_bundle_id" TEXT,
    "device_model" TEXT,
    "external_id" TEXT,
    "was_user_entered" BOOLEAN NOT NULL DEFAULT false,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "provider" TEXT NOT NULL,
    "source" TEXT,
    "source_key" TEXT NOT NULL,
    "device" TEXT,
    "on_body" BOOLEAN NOT NULL DEFAULT false,
    "ingested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "raw_object_id" UUID,
    "dedupe_key" TEXT NOT NULL,

    CONSTRAINT "category_samples_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sleep_sessions" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "kind" TEXT NOT NULL DEFAULT 'sleep',
    "bedtime_start" TIMESTAMPTZ(3) NOT NULL,
    "bedtime_end" TIMESTAMPTZ(3) NOT NULL,
    "timezone" TEXT,
    "total_sleep_seconds" INTEGER,
    "awake_seconds" INTEGER,
    "light_seconds" INTEGER,
    "deep_seconds" INTEGER,
    "rem_seconds" INTEGER,
    "latency_seconds" INTEGER,
    "efficiency" DOUBLE PRECISION,
    "score" DOUBLE PRECISION,
    "average_heart_rate" DOUBLE PRECISION,
    "lowest_heart_rate" DOUBLE PRECISION,
    "average_hrv" DOUBLE PRECISION,
    "respiratory_rate" DOUBLE PRECISION,
    "source_name" TEXT,
    "external_id" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "provider" TEXT NOT NULL,
    "source" TEXT,
    "source_key" TEXT NOT NULL,
    "device" TEXT,
    "on_body" BOOLEAN NOT NULL DEFAULT false,
    "ingested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "raw_object_id" UUID,
    "dedupe_key" TEXT NOT NULL,

    CONSTRAINT "sleep_sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sleep_phases" (
    "id" BIGSERIAL NOT NULL,
    "session_id" UUID NOT NULL,
    "stage" TEXT NOT NULL,
    "start_date" TIMESTAMPTZ(3) NOT NULL,
    "end_date" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sleep_phases_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "workouts" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "activity_type" TEXT NOT NULL,
    "name" TEXT,
    "start_date" TIMESTAMPTZ(3) NOT NULL,
    "end_date" TIMESTAMPTZ(3) NOT NULL,
    "timezone" TEXT,
    "duration_seconds" DOUBLE PRECISION NOT NULL,
    "distance_meters" DOUBLE PRECISION,
    "active_energy_kcal" DOUBLE PRECISION,
    "total_energy_kcal" DOUBLE PRECISION,
    "average_heart_rate" DOUBLE PRECISION,
    "max_heart_rate" DOUBLE PRECISION,
    "elevation_gain_meters" DOUBLE PRECISION,
    "steps" DOUBLE PRECISION,
    "source_name" TEXT,
    "external_id" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "provider" TEXT NOT NULL,
    "source" TEXT,
    "source_key" TEXT NOT NULL,
    "device" TEXT,
    "on_body" BOOLEAN NOT NULL DEFAULT false,
    "ingested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "raw_object_id" UUID,
    "dedupe_key" TEXT NOT NULL,

    CONSTRAINT "workouts_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "workout_route_points" (
    "id" BIGSERIAL NOT NULL,
    "workout_id" UUID NOT NULL,
    "timestamp" TIMESTAMPTZ(3) NOT NULL,
    "latitude" DOUBLE PRECISION NOT NULL,
    "longitude" DOUBLE PRECISION NOT NULL,
    "altitude_meters" DOUBLE PRECISION,
    "speed" DOUBLE PRECISION,
    "heart_rate" DOUBLE PRECISION,
    "accuracy_meters" DOUBLE PRECISION,

    CONSTRAINT "workout_route_points_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "workout_track_summaries" (
    "workout_id" UUID NOT NULL,
    "point_count" INTEGER NOT NULL,
    "distance_meters" DOUBLE PRECISION NOT NULL,
    "elevation_gain_meters" DOUBLE PRECISION,
    "elevation_loss_meters" DOUBLE PRECISION,
    "min_latitude" DOUBLE PRECISION NOT NULL,
    "max_latitude" DOUBLE PRECISION NOT NULL,
    "min_longitude" DOUBLE PRECISION NOT NULL,
    "max_longitude" DOUBLE PRECISION NOT NULL,
    "first_point_at" TIMESTAMPTZ(3) NOT NULL,
    "last_point_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "workout_track_summaries_pkey" PRIMARY KEY ("workout_id")
);

-- CreateTable
CREATE TABLE "nutrition_logs" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "start_date" TIMESTAMPTZ(3) NOT NULL,
    "end_date" TIMESTAMPTZ(3) NOT NULL,
    "meal_type" TEXT,
    "name" TEXT,
    "energy_kcal" DOUBLE PRECISION,
    "protein_grams" DOUBLE PRECISION,
    "carbohydrates_grams" DOUBLE PRECISION,
    "fat_grams" DOUBLE PRECISION,
    "fiber_grams" DOUBLE PRECISION,
    "sugar_grams" DOUBLE PRECISION,
    "sodium_milligrams" DOUBLE PRECISION,
    "water_milliliters" DOUBLE PRECISION,
    "nutrients" JSONB NOT NULL DEFAULT '{}',
    "source_name" TEXT,
    "external_id" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "provider" TEXT NOT NULL,
    "source" TEXT,
    "source_key" TEXT NOT NULL,
    "device" TEXT,
    "on_body" BOOLEAN NOT NULL DEFAULT false,
    "ingested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "raw_object_id" UUID,
    "dedupe_key" TEXT NOT NULL,

    CONSTRAINT "nutrition_logs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "daily_summaries" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "date" DATE NOT NULL,
    "timezone" TEXT,
    "steps" DOUBLE PRECISION,
    "distance_meters" DOUBLE PRECISION,
    "active_energy_kcal" DOUBLE PRECISION,
    "total_energy_kcal" DOUBLE PRECISION,
    "floors_climbed" DOUBLE PRECISION,
    "active_seconds" INTEGER,
    "resting_heart_rate" DOUBLE PRECISION,
    "average_heart_rate" DOUBLE PRECISION,
    "hrv_rmssd" DOUBLE PRECISION,
    "sleep_seconds" INTEGER,
    "score" DOUBLE PRECISION,
    "derived" BOOLEAN NOT NULL DEFAULT false,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "provider" TEXT NOT NULL,
    "source" TEXT,
    "source_key" TEXT NOT NULL,
    "device" TEXT,
    "on_body" BOOLEAN NOT NULL DEFAULT false,
    "ingested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "raw_object_id" UUID,

    CONSTRAINT "daily_summaries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "heartbeat_series" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "start_date" TIMESTAMPTZ(3) NOT NULL,
    "end_date" TIMESTAMPTZ(3) NOT NULL,
    "beat_count" INTEGER NOT NULL,
    "source_name" TEXT,
    "external_id" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "provider" TEXT NOT NULL,
    "source" TEXT,
    "source_key" TEXT NOT NULL,
    "device" TEXT,
    "on_body" BOOLEAN NOT NULL DEFAULT false,
    "ingested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "raw_object_id" UUID,
    "dedupe_key" TEXT NOT NULL,

    CONSTRAINT "heartbeat_series_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "rr_intervals" (
    "id" BIGSERIAL NOT NULL,
    "series_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "timestamp" TIMESTAMPTZ(3) NOT NULL,
    "interval_ms" DOUBLE PRECISION NOT NULL,
    "preceded_by_gap" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "rr_intervals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "hrv_results" (
    "series_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "first_beat_at" TIMESTAMPTZ(3) NOT NULL,
    "last_beat_at" TIMESTAMPTZ(3) NOT NULL,
    "beat_count" INTEGER NOT NULL,
    "rmssd_ms" DOUBLE PRECISION,
    "sdnn_ms" DOUBLE PRECISION,
    "pnn50" DOUBLE PRECISION,
    "mean_rr_ms" DOUBLE PRECISION,
    "mean_heart_rate" DOUBLE PRECISION,
    "computed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "hrv_results_pkey" PRIMARY KEY ("series_id")
);

-- CreateTable
CREATE TABLE "menstrual_cycles" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "start_date" DATE NOT NULL,
    "period_end_date" DATE NOT NULL,
    "end_date" DATE,
    "cycle_length_days" INTEGER,
    "period_length_days" INTEGER NOT NULL,
    "computed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "menstrual_cycles_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ecg_recordings" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "start_date" TIMESTAMPTZ(3) NOT NULL,
    "end_date" TIMESTAMPTZ(3) NOT NULL,
    "classification" TEXT,
    "average_heart_rate" DOUBLE PRECISION,
    "sampling_frequency_hz" DOUBLE PRECISION NOT NULL,
    "lead_name" TEXT,
    "sample_count" INTEGER NOT NULL,
    "symptoms" TEXT[],
    "source_name" TEXT,
    "external_id" TEXT,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "provider" TEXT NOT NULL,
    "source" TEXT,
    "source_key" TEXT NOT NULL,
    "device" TEXT,
    "on_body" BOOLEAN NOT NULL DEFAULT false,
    "ingested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "raw_object_id" UUID,
    "dedupe_key" TEXT NOT NULL,

    CONSTRAINT "ecg_recordings_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ecg_voltages" (
    "recording_id" UUID NOT NULL,
    "microvolts" DOUBLE PRECISION[],

    CONSTRAINT "ecg_voltages_pkey" PRIMARY KEY ("recording_id")
);

-- CreateTable
CREATE TABLE "rejected_records" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "raw_object_id" UUID,
    "record_kind" TEXT NOT NULL,
    "locator" TEXT,
    "reason" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rejected_records_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "provider_tombstones" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "record_kind" TEXT NOT NULL,
    "dedupe_key" TEXT NOT NULL,
    "deleted_at" TIMESTAMPTZ(3),
    "received_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "provider_tombstones_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "source_orders" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "scope" TEXT NOT NULL,
    "sources" TEXT[],
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "source_orders_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "raw_objects_user_id_provider_received_at_idx" ON "raw_objects"("user_id", "provider", "received_at");

-- CreateIndex
CREATE INDEX "quantity_samples_user_id_type_start_date_id_idx" ON "quantity_samples"("user_id", "type", "start_date", "id");

-- CreateIndex
CREATE INDEX "quantity_samples_user_id_type_source_key_provider_on_body_s_idx" ON "quantity_samples"("user_id", "type", "source_key", "provider", "on_body", "start_date");

-- CreateIndex
CREATE UNIQUE INDEX "quantity_samples_user_id_type_provider_dedupe_key_key" ON "quantity_samples"("user_id", "type", "provider", "dedupe_key");

-- CreateIndex
CREATE INDEX "category_samples_user_id_type_start_date_id_idx" ON "category_samples"("user_id", "type", "start_date", "id");

-- CreateIndex
CREATE INDEX "category_samples_user_id_start_date_id_idx" ON "category_samples"("user_id", "start_date", "id");

-- CreateIndex
CREATE UNIQUE INDEX "category_samples_user_id_type_provider_dedupe_key_key" ON "category_samples"("user_id", "type", "provider", "dedupe_key");

-- CreateIndex
CREATE INDEX "sleep_sessions_user_id_bedtime_start_id_idx" ON "sleep_sessions"("user_id", "bedtime_start", "id");

-- CreateIndex
CREATE UNIQUE INDEX "sleep_sessions_user_id_provider_dedupe_key_key" ON "sleep_sessions"("user_id", "provider", "dedupe_key");

-- CreateIndex
CREATE INDEX "sleep_phases_session_id_start_date_id_idx" ON "sleep_phases"("session_id", "start_date", "id");

-- CreateIndex
CREATE INDEX "workouts_user_id_start_date_id_idx" ON "workouts"("user_id", "start_date", "id");

-- CreateIndex
CREATE INDEX "workouts_user_id_activity_type_start_date_id_idx" ON "workouts"("user_id", "activity_type", "start_date", "id");

-- CreateIndex
CREATE UNIQUE INDEX "workouts_user_id_provider_dedupe_key_key" ON "workouts"("user_id", "provider", "dedupe_key");

-- CreateIndex
CREATE UNIQUE INDEX "workout_route_points_workout_id_timestamp_key" ON "workout_route_points"("workout_id", "timestamp");

-- CreateIndex
CREATE INDEX "nutrition_logs_user_id_start_date_id_idx" ON "nutrition_logs"("user_id", "start_date", "id");

-- CreateIndex
CREATE UNIQUE INDEX "nutrition_logs_user_id_provider_dedupe_key_key" ON "nutrition_logs"("user_id", "provider", "dedupe_key");

-- CreateIndex
CREATE INDEX "daily_summaries_user_id_date_idx" ON "daily_summaries"("user_id", "date");

-- CreateIndex
CREATE UNIQUE INDEX "daily_summaries_user_id_provider_date_key" ON "daily_summaries"("user_id", "provider", "date");

-- CreateIndex
CREATE INDEX "heartbeat_series_user_id_start_date_id_idx" ON "heartbeat_series"("user_id", "start_date", "id");

-- CreateIndex
CREATE UNIQUE INDEX "heartbeat_series_user_id_provider_dedupe_key_key" ON "heartbeat_series"("user_id", "provider", "dedupe_key");

-- CreateIndex
CREATE INDEX "rr_intervals_user_id_timestamp_id_idx" ON "rr_intervals"("user_id", "timestamp", "id");

-- CreateIndex
CREATE UNIQUE INDEX "rr_intervals_series_id_timestamp_key" ON "rr_intervals"("series_id", "timestamp");

-- CreateIndex
CREATE INDEX "hrv_results_user_id_first_beat_at_series_id_idx" ON "hrv_results"("user_id", "first_beat_at", "series_id");

-- CreateIndex
CREATE UNIQUE INDEX "menstrual_cycles_user_id_start_date_key" ON "menstrual_cycles"("user_id", "start_date");

-- CreateIndex
CREATE INDEX "ecg_recordings_user_id_start_date_id_idx" ON "ecg_recordings"("user_id", "start_date", "id");

-- CreateIndex
CREATE UNIQUE INDEX "ecg_recordings_user_id_provider_dedupe_key_key" ON "ecg_recordings"("user_id", "provider", "dedupe_key");

-- CreateIndex
CREATE INDEX "rejected_records_user_id_provider_created_at_idx" ON "rejected_records"("user_id", "provider", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "provider_tombstones_user_id_provider_record_kind_dedupe_key_key" ON "provider_tombstones"("user_id", "provider", "record_kind", "dedupe_key");

-- CreateIndex
CREATE UNIQUE INDEX "source_orders_user_id_scope_key" ON "source_orders"("user_id", "scope");

-- AddForeignKey
ALTER TABLE "raw_objects" ADD CONSTRAINT "raw_objects_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "quantity_samples" ADD CONSTRAINT "quantity_samples_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "quantity_sample_streams" ADD CONSTRAINT "quantity_sample_streams_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "category_samples" ADD CONSTRAINT "category_samples_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sleep_sessions" ADD CONSTRAINT "sleep_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sleep_phases" ADD CONSTRAINT "sleep_phases_session_id_fkey" FOREIGN KEY ("session_id") REFERENCES "sleep_sessions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workouts" ADD CONSTRAINT "workouts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workout_route_points" ADD CONSTRAINT "workout_route_points_workout_id_fkey" FOREIGN KEY ("workout_id") REFERENCES "workouts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "workout_track_summaries" ADD CONSTRAINT "workout_track_summaries_workout_id_fkey" FOREIGN KEY ("workout_id") REFERENCES "workouts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "nutrition_logs" ADD CONSTRAINT "nutrition_logs_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "daily_summaries" ADD CONSTRAINT "daily_summaries_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "heartbeat_series" ADD CONSTRAINT "heartbeat_series_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rr_intervals" ADD CONSTRAINT "rr_intervals_series_id_fkey" FOREIGN KEY ("series_id") REFERENCES "heartbeat_series"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "hrv_results" ADD CONSTRAINT "hrv_results_series_id_fkey" FOREIGN KEY ("series_id") REFERENCES "heartbeat_series"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "menstrual_cycles" ADD CONSTRAINT "menstrual_cycles_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ecg_recordings" ADD CONSTRAINT "ecg_recordings_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ecg_voltages" ADD CONSTRAINT "ecg_voltages_recording_id_fkey" FOREIGN KEY ("recording_id") REFERENCES "ecg_recordings"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "rejected_records" ADD CONSTRAINT "rejected_records_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "provider_tombstones" ADD CONSTRAINT "provider_tombstones_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "source_orders" ADD CONSTRAINT "source_orders_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
