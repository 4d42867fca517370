-- CreateTable
CREATE TABLE "time_tags" (
    "id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "label" TEXT NOT NULL,
    "note" TEXT,
    "start_at" TIMESTAMPTZ(3) NOT NULL,
    "end_at" TIMESTAMPTZ(3),
    "timezone" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "time_tags_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "time_tags_user_id_start_at_id_idx" ON "time_tags"("user_id", "start_at", "id");

-- AddForeignKey
ALTER TABLE "time_tags" ADD CONSTRAINT "time_tags_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
