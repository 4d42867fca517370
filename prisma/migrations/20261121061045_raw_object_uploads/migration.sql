-- CreateEnum
CREATE TYPE "raw_object_status" AS ENUM ('receiving', 'pending', 'processed', 'failed');

-- AlterTable
ALTER TABLE "raw_objects" ADD COLUMN     "error" TEXT,
ADD COLUMN     "status" "raw_object_status" NOT NULL DEFAULT 'receiving',
ADD COLUMN     "summary" JSONB,
ADD COLUMN     "upload_key" TEXT,
ALTER COLUMN "byte_size" SET DEFAULT 0,
ALTER COLUMN "byte_size" SET DATA TYPE BIGINT,
ALTER COLUMN "sha256" SET DEFAULT '';

-- CreateIndex
CREATE INDEX "raw_objects_status_received_at_idx" ON "raw_objects"("status", "received_at");

-- CreateIndex
CREATE UNIQUE INDEX "raw_objects_user_id_provider_upload_key_key" ON "raw_objects"("user_id", "provider", "upload_key");
