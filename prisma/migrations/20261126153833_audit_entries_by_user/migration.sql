-- CreateIndex
CREATE INDEX "audit_entries_user_id_created_at_id_idx" ON "audit_entries"("user_id", "created_at", "id");
