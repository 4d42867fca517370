-- CreateIndex
CREATE INDEX "daily_summaries_id_idx" ON "daily_summaries"("id");

-- CreateIndex
CREATE INDEX "ecg_recordings_id_idx" ON "ecg_recordings"("id");

-- CreateIndex
CREATE INDEX "nutrition_logs_id_idx" ON "nutrition_logs"("id");

-- CreateIndex
CREATE INDEX "sleep_sessions_id_idx" ON "sleep_sessions"("id");

-- CreateIndex
CREATE INDEX "workouts_id_idx" ON "workouts"("id");

-- A quantity sample named by its id alone: slot id % 8192 of chunk id / 8192 (one probe per
-- partition), or, for a sample stored before the upgrade to chunks and moved since, its chunk's
-- legacy_ids (only chunks the job data-moves filled are indexed). Not managed by Prisma.
CREATE INDEX "quantity_sample_chunks_chunk_id_idx" ON "quantity_sample_chunks"("chunk_id");
CREATE INDEX "quantity_sample_chunks_legacy_ids_idx" ON "quantity_sample_chunks" USING gin ("legacy_ids") WHERE "legacy_ids" IS NOT NULL;
