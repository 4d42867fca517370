-- AlterTable
ALTER TABLE "deletion_jobs" ADD COLUMN     "categories" TEXT[] DEFAULT ARRAY[]::TEXT[];

-- CreateTable
CREATE TABLE "shares" (
    "id" UUID NOT NULL,
    "tenant_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "label" TEXT NOT NULL,
    "categories" TEXT[],
    "window_start" TIMESTAMPTZ(3) NOT NULL,
    "window_end" TIMESTAMPTZ(3) NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,
    "passcode_hash" TEXT,
    "passcode_failures" INTEGER NOT NULL DEFAULT 0,
    "providers" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "revoked_at" TIMESTAMPTZ(3),
    "revoked_reason" TEXT,
    "observations" INTEGER NOT NULL DEFAULT 0,
    "file_bytes" INTEGER NOT NULL DEFAULT 0,
    "file" BYTEA,
    "accesses" INTEGER NOT NULL DEFAULT 0,
    "last_accessed_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "shares_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "source_consents" (
    "user_id" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "granted" BOOLEAN NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "source_consents_pkey" PRIMARY KEY ("user_id","provider","category")
);

-- CreateIndex
CREATE INDEX "shares_user_id_created_at_id_idx" ON "shares"("user_id", "created_at", "id");

-- AddForeignKey
ALTER TABLE "shares" ADD CONSTRAINT "shares_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "source_consents" ADD CONSTRAINT "source_consents_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
