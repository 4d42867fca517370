-- An upload's status (GET /v1/ingest/uploads/{upload_id}) lists its first rejected records by
-- line: the line their locator names (`line 7`, `lines 7-9`, `line 7, objects[0]`) is kept as a
-- number. Rows stored before get it from their locator here.

-- AlterTable
ALTER TABLE "rejected_records" ADD COLUMN     "line" INTEGER;

UPDATE "rejected_records" SET "line" = substring("locator" FROM '^lines? ([0-9]{1,9})([^0-9]|$)')::int
WHERE "raw_object_id" IS NOT NULL AND "locator" ~ '^lines? [0-9]{1,9}([^0-9]|$)';

-- CreateIndex
CREATE INDEX "rejected_records_user_id_raw_object_id_line_idx" ON "rejected_records"("user_id", "raw_object_id", "line");
