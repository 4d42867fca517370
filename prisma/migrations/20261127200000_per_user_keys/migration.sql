-- Every table of one user's data keys on user_id, so the tables can be distributed by user
-- (docs/deployment.md, "Distributing on Citus"): primary keys become (user_id, id), unique
-- keys start with user_id, the tables that reached their user only through a parent get
-- user_id (copied from the parent), and foreign keys between such tables include user_id.
-- Ids keep their values and sequences. Foreign keys holding user_id no longer cascade
-- updates: ids never change, and Citus refuses ON UPDATE CASCADE on a distribution column.
-- Rows are rewritten and indexes rebuilt under exclusive locks: stop svc while it runs
-- (docs/deployment.md, "Migrations and upgrading").

-- The user of each row of a parent's parts.
ALTER TABLE "sleep_phases" ADD COLUMN "user_id" UUID;
UPDATE "sleep_phases" p SET "user_id" = s."user_id" FROM "sleep_sessions" s WHERE s."id" = p."session_id";
ALTER TABLE "sleep_phases" ALTER COLUMN "user_id" SET NOT NULL;

ALTER TABLE "workout_route_points" ADD COLUMN "user_id" UUID;
UPDATE "workout_route_points" p SET "user_id" = w."user_id" FROM "workouts" w WHERE w."id" = p."workout_id";
ALTER TABLE "workout_route_points" ALTER COLUMN "user_id" SET NOT NULL;

ALTER TABLE "workout_track_summaries" ADD COLUMN "user_id" UUID;
UPDATE "workout_track_summaries" t SET "user_id" = w."user_id" FROM "workouts" w WHERE w."id" = t."workout_id";
ALTER TABLE "workout_track_summaries" ALTER COLUMN "user_id" SET NOT NULL;

ALTER TABLE "ecg_voltages" ADD COLUMN "user_id" UUID;
UPDATE "ecg_voltages" v SET "user_id" = e."user_id" FROM "ecg_recordings" e WHERE e."id" = v."recording_id";
ALTER TABLE "ecg_voltages" ALTER COLUMN "user_id" SET NOT NULL;

-- DropForeignKey: the keys they point at change, or their update action does.
ALTER TABLE "category_samples" DROP CONSTRAINT "category_samples_user_id_fkey";
ALTER TABLE "connections" DROP CONSTRAINT "connections_user_id_fkey";
ALTER TABLE "daily_summaries" DROP CONSTRAINT "daily_summaries_user_id_fkey";
ALTER TABLE "ecg_recordings" DROP CONSTRAINT "ecg_recordings_user_id_fkey";
ALTER TABLE "ecg_voltages" DROP CONSTRAINT "ecg_voltages_recording_id_fkey";
ALTER TABLE "heartbeat_series" DROP CONSTRAINT "heartbeat_series_user_id_fkey";
ALTER TABLE "hrv_results" DROP CONSTRAINT "hrv_results_series_id_fkey";
ALTER TABLE "menstrual_cycles" DROP CONSTRAINT "menstrual_cycles_user_id_fkey";
ALTER TABLE "nutrition_logs" DROP CONSTRAINT "nutrition_logs_user_id_fkey";
ALTER TABLE "provider_tombstones" DROP CONSTRAINT "provider_tombstones_user_id_fkey";
ALTER TABLE "push_subscriptions" DROP CONSTRAINT "push_subscriptions_connection_id_fkey";
ALTER TABLE "push_subscriptions" DROP CONSTRAINT "push_subscriptions_user_id_fkey";
ALTER TABLE "quantity_sample_streams" DROP CONSTRAINT "quantity_sample_streams_user_id_fkey";
ALTER TABLE "raw_objects" DROP CONSTRAINT "raw_objects_user_id_fkey";
ALTER TABLE "rejected_records" DROP CONSTRAINT "rejected_records_user_id_fkey";
ALTER TABLE "rr_intervals" DROP CONSTRAINT "rr_intervals_series_id_fkey";
ALTER TABLE "shares" DROP CONSTRAINT "shares_user_id_fkey";
ALTER TABLE "sleep_phases" DROP CONSTRAINT "sleep_phases_session_id_fkey";
ALTER TABLE "sleep_sessions" DROP CONSTRAINT "sleep_sessions_user_id_fkey";
ALTER TABLE "source_consents" DROP CONSTRAINT "source_consents_user_id_fkey";
ALTER TABLE "source_orders" DROP CONSTRAINT "source_orders_user_id_fkey";
ALTER TABLE "sync_runs" DROP CONSTRAINT "sync_runs_connection_id_fkey";
ALTER TABLE "sync_runs" DROP CONSTRAINT "sync_runs_user_id_fkey";
ALTER TABLE "time_tags" DROP CONSTRAINT "time_tags_user_id_fkey";
ALTER TABLE "workout_route_points" DROP CONSTRAINT "workout_route_points_workout_id_fkey";
ALTER TABLE "workout_track_summaries" DROP CONSTRAINT "workout_track_summaries_workout_id_fkey";
ALTER TABLE "workouts" DROP CONSTRAINT "workouts_user_id_fkey";

-- Primary keys with user_id first.
ALTER TABLE "category_samples" DROP CONSTRAINT "category_samples_pkey", ADD CONSTRAINT "category_samples_pkey" PRIMARY KEY ("user_id", "id");
ALTER TABLE "connections" DROP CONSTRAINT "connections_pkey", ADD CONSTRAINT "connections_pkey" PRIMARY KEY ("user_id", "id");
ALTER TABLE "daily_summaries" DROP CONSTRAINT "daily_summaries_pkey", ADD CONSTRAINT "daily_summaries_pkey" PRIMARY KEY ("user_id", "id");
ALTER TABLE "ecg_recordings" DROP CONSTRAINT "ecg_recordings_pkey", ADD CONSTRAINT "ecg_recordings_pkey" PRIMARY KEY ("user_id", "id");
ALTER TABLE "ecg_voltages" DROP CONSTRAINT "ecg_voltages_pkey", ADD CONSTRAINT "ecg_voltages_pkey" PRIMARY KEY ("user_id", "recording_id");
ALTER TABLE "heartbeat_series" DROP CONSTRAINT "heartbeat_series_pkey", ADD CONSTRAINT "heartbeat_series_pkey" PRIMARY KEY ("user_id", "id");
ALTER TABLE "hrv_results" DROP CONSTRAINT "hrv_results_pkey", ADD CONSTRAINT "hrv_results_pkey" PRIMARY KEY ("user_id", "series_id");
ALTER TABLE "menstrual_cycles" DROP CONSTRAINT "menstrual_cycles_pkey", ADD CONSTRAINT "menstrual_cycles_pkey" PRIMARY KEY ("user_id", "id");
ALTER TABLE "nutrition_logs" DROP CONSTRAINT "nutrition_logs_pkey", ADD CONSTRAINT "nutrition_logs_pkey" PRIMARY KEY ("user_id", "id");
ALTER TABLE "provider_tombstones" DROP CONSTRAINT "provider_tombstones_pkey", ADD CONSTRAINT "provider_tombstones_pkey" PRIMARY KEY ("user_id", "id");
ALTER TABLE "push_subscriptions" DROP CONSTRAINT "push_subscriptions_pkey", ADD CONSTRAINT "push_subscriptions_pkey" PRIMARY KEY ("user_id", "id");
ALTER TABLE "raw_objects" DROP CONSTRAINT "raw_objects_pkey", ADD CONSTRAINT "raw_objects_pkey" PRIMARY KEY ("user_id", "id");
ALTER TABLE "rejected_records" DROP CONSTRAINT "rejected_records_pkey", ADD CONSTRAINT "rejected_records_pkey" PRIMARY KEY ("user_id", "id");
ALTER TABLE "rr_intervals" DROP CONSTRAINT "rr_intervals_pkey", ADD CONSTRAINT "rr_intervals_pkey" PRIMARY KEY ("user_id", "id");
ALTER TABLE "shares" DROP CONSTRAINT "shares_pkey", ADD CONSTRAINT "shares_pkey" PRIMARY KEY ("user_id", "id");
ALTER TABLE "sleep_phases" DROP CONSTRAINT "sleep_phases_pkey", ADD CONSTRAINT "sleep_phases_pkey" PRIMARY KEY ("user_id", "id");
ALTER TABLE "sleep_sessions" DROP CONSTRAINT "sleep_sessions_pkey", ADD CONSTRAINT "sleep_sessions_pkey" PRIMARY KEY ("user_id", "id");
ALTER TABLE "source_orders" DROP CONSTRAINT "source_orders_pkey", ADD CONSTRAINT "source_orders_pkey" PRIMARY KEY ("user_id", "id");
ALTER TABLE "sync_runs" DROP CONSTRAINT "sync_runs_pkey", ADD CONSTRAINT "sync_runs_pkey" PRIMARY KEY ("user_id", "id");
ALTER TABLE "time_tags" DROP CONSTRAINT "time_tags_pkey", ADD CONSTRAINT "time_tags_pkey" PRIMARY KEY ("user_id", "id");
ALTER TABLE "workout_route_points" DROP CONSTRAINT "workout_route_points_pkey", ADD CONSTRAINT "workout_route_points_pkey" PRIMARY KEY ("user_id", "id");
ALTER TABLE "workout_track_summaries" DROP CONSTRAINT "workout_track_summaries_pkey", ADD CONSTRAINT "workout_track_summaries_pkey" PRIMARY KEY ("user_id", "workout_id");
ALTER TABLE "workouts" DROP CONSTRAINT "workouts_pkey", ADD CONSTRAINT "workouts_pkey" PRIMARY KEY ("user_id", "id");

-- Unique keys with user_id first.
DROP INDEX "push_subscriptions_connection_id_external_id_key";
CREATE UNIQUE INDEX "push_subscriptions_user_id_connection_id_external_id_key" ON "push_subscriptions"("user_id", "connection_id", "external_id");
DROP INDEX "rr_intervals_series_id_timestamp_key";
CREATE UNIQUE INDEX "rr_intervals_user_id_series_id_timestamp_key" ON "rr_intervals"("user_id", "series_id", "timestamp");
DROP INDEX "workout_route_points_workout_id_timestamp_key";
CREATE UNIQUE INDEX "workout_route_points_user_id_workout_id_timestamp_key" ON "workout_route_points"("user_id", "workout_id", "timestamp");

-- Rows that jobs and share links name by their id alone.
CREATE INDEX "connections_id_idx" ON "connections"("id");
CREATE INDEX "raw_objects_id_idx" ON "raw_objects"("id");
CREATE INDEX "shares_id_idx" ON "shares"("id");
CREATE INDEX "sync_runs_id_idx" ON "sync_runs"("id");

-- AddForeignKey
ALTER TABLE "raw_objects" ADD CONSTRAINT "raw_objects_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "quantity_sample_streams" ADD CONSTRAINT "quantity_sample_streams_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "category_samples" ADD CONSTRAINT "category_samples_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "sleep_sessions" ADD CONSTRAINT "sleep_sessions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "sleep_phases" ADD CONSTRAINT "sleep_phases_user_id_session_id_fkey" FOREIGN KEY ("user_id", "session_id") REFERENCES "sleep_sessions"("user_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "workouts" ADD CONSTRAINT "workouts_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "workout_route_points" ADD CONSTRAINT "workout_route_points_user_id_workout_id_fkey" FOREIGN KEY ("user_id", "workout_id") REFERENCES "workouts"("user_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "workout_track_summaries" ADD CONSTRAINT "workout_track_summaries_user_id_workout_id_fkey" FOREIGN KEY ("user_id", "workout_id") REFERENCES "workouts"("user_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "nutrition_logs" ADD CONSTRAINT "nutrition_logs_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "daily_summaries" ADD CONSTRAINT "daily_summaries_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "heartbeat_series" ADD CONSTRAINT "heartbeat_series_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "rr_intervals" ADD CONSTRAINT "rr_intervals_user_id_series_id_fkey" FOREIGN KEY ("user_id", "series_id") REFERENCES "heartbeat_series"("user_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "hrv_results" ADD CONSTRAINT "hrv_results_user_id_series_id_fkey" FOREIGN KEY ("user_id", "series_id") REFERENCES "heartbeat_series"("user_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "menstrual_cycles" ADD CONSTRAINT "menstrual_cycles_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "ecg_recordings" ADD CONSTRAINT "ecg_recordings_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "ecg_voltages" ADD CONSTRAINT "ecg_voltages_user_id_recording_id_fkey" FOREIGN KEY ("user_id", "recording_id") REFERENCES "ecg_recordings"("user_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "rejected_records" ADD CONSTRAINT "rejected_records_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "provider_tombstones" ADD CONSTRAINT "provider_tombstones_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "source_orders" ADD CONSTRAINT "source_orders_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "time_tags" ADD CONSTRAINT "time_tags_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "connections" ADD CONSTRAINT "connections_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "sync_runs" ADD CONSTRAINT "sync_runs_user_id_connection_id_fkey" FOREIGN KEY ("user_id", "connection_id") REFERENCES "connections"("user_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "sync_runs" ADD CONSTRAINT "sync_runs_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_user_id_connection_id_fkey" FOREIGN KEY ("user_id", "connection_id") REFERENCES "connections"("user_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "push_subscriptions" ADD CONSTRAINT "push_subscriptions_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "shares" ADD CONSTRAINT "shares_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION;
ALTER TABLE "source_consents" ADD CONSTRAINT "source_consents_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION;
