-- CreateEnum
CREATE TYPE "fhir_export_state" AS ENUM ('queued', 'running', 'completed', 'failed', 'cancelled');

-- CreateTable
CREATE TABLE "fhir_exports" (
    "id" UUID NOT NULL DEFAULT gen_random_uuid(),
    "tenant_id" UUID NOT NULL,
    "user_id" UUID,
    "resource_types" TEXT[],
    "since" TIMESTAMPTZ(3),
    "transaction_time" TIMESTAMPTZ(3) NOT NULL,
    "request_url" TEXT NOT NULL,
    "state" "fhir_export_state" NOT NULL DEFAULT 'queued',
    "resources_written" BIGINT NOT NULL DEFAULT 0,
    "resume_position" JSONB,
    "error_code" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finished_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3),

    CONSTRAINT "fhir_exports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "fhir_export_files" (
    "export_id" UUID NOT NULL,
    "file_number" INTEGER NOT NULL,
    "resource_type" TEXT NOT NULL,
    "storage_key" TEXT NOT NULL,
    "resource_count" BIGINT NOT NULL,
    "byte_size" BIGINT NOT NULL,

    CONSTRAINT "fhir_export_files_pkey" PRIMARY KEY ("export_id","file_number")
);

-- CreateIndex
CREATE INDEX "fhir_exports_tenant_state" ON "fhir_exports"("tenant_id", "state");

-- CreateIndex
CREATE INDEX "fhir_exports_expires_at" ON "fhir_exports"("expires_at");

-- AddForeignKey
ALTER TABLE "fhir_exports" ADD CONSTRAINT "fhir_exports_tenant_id_fkey" FOREIGN KEY ("tenant_id") REFERENCES "tenants"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "fhir_exports" ADD CONSTRAINT "fhir_exports_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "fhir_export_files" ADD CONSTRAINT "fhir_export_files_export_id_fkey" FOREIGN KEY ("export_id") REFERENCES "fhir_exports"("id") ON DELETE CASCADE ON UPDATE CASCADE;
