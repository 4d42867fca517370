-- AlterTable
ALTER TABLE "raw_objects" ADD COLUMN     "heartbeat_at" TIMESTAMPTZ(3) DEFAULT CURRENT_TIMESTAMP;
