-- CreateTable
CREATE TABLE "audit_entries" (
    "id" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actor_kind" TEXT NOT NULL,
    "actor_id" UUID NOT NULL,
    "action" TEXT NOT NULL,
    "tenant_id" UUID,
    "user_id" UUID,
    "provider" TEXT,
    "resource_type" TEXT,
    "resource_id" TEXT,
    "request_id" TEXT,

    CONSTRAINT "audit_entries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_entries_tenant_id_created_at_id_idx" ON "audit_entries"("tenant_id", "created_at", "id");

-- CreateIndex
CREATE INDEX "audit_entries_actor_kind_created_at_id_idx" ON "audit_entries"("actor_kind", "created_at", "id");

-- CreateIndex
CREATE INDEX "sync_runs_status_finished_at_idx" ON "sync_runs"("status", "finished_at");
