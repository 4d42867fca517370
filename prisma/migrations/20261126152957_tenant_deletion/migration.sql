-- CreateEnum
CREATE TYPE "tenant_status" AS ENUM ('active', 'deleting');

-- AlterTable
ALTER TABLE "tenants" ADD COLUMN     "status" "tenant_status" NOT NULL DEFAULT 'active';

-- CreateTable
CREATE TABLE "tenant_deletion_jobs" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "tenant_name" TEXT NOT NULL,
    "status" "deletion_status" NOT NULL DEFAULT 'pending',
    "users_total" INTEGER NOT NULL DEFAULT 0,
    "users_deleted" INTEGER NOT NULL DEFAULT 0,
    "error" TEXT,
    "requested_by" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "tenant_deletion_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "tenant_deletion_jobs_tenant_id_key" ON "tenant_deletion_jobs"("tenant_id");
