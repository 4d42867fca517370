-- category_samples_legacy holds the category samples stored one wide row each before the upgrade
-- to series, until the job data-moves moves them (docs/decisions.md, "Online data moves"). A
-- database upgraded by the first text of *_category_sample_series, which moved them inside the
-- migration, has none: it gets the table empty, with the shape the renamed table has.
CREATE TABLE IF NOT EXISTS "category_samples_legacy" (
    "id" BIGINT NOT NULL,
    "user_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "start_date" TIMESTAMPTZ(3) NOT NULL,
    "end_date" TIMESTAMPTZ(3) NOT NULL,
    "source_name" TEXT,
    "source_bundle_id" TEXT,
    "device_model" TEXT,
    "external_id" TEXT,
    "was_user_entered" BOOLEAN NOT NULL DEFAULT false,
    "metadata" JSONB NOT NULL DEFAULT '{}',
    "provider" TEXT NOT NULL,
    "source" TEXT,
    "source_key" TEXT NOT NULL,
    "device" TEXT,
    "on_body" BOOLEAN NOT NULL DEFAULT false,
    "ingested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "raw_object_id" UUID,
    "dedupe_key" TEXT NOT NULL,

    CONSTRAINT "category_samples_legacy_pkey" PRIMARY KEY ("user_id", "id"),
    CONSTRAINT "category_samples_legacy_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
);
CREATE UNIQUE INDEX IF NOT EXISTS "category_samples_legacy_user_id_type_provider_dedupe_key_key"
  ON "category_samples_legacy"("user_id", "type", "provider", "dedupe_key");
CREATE INDEX IF NOT EXISTS "category_samples_legacy_user_id_type_start_date_id_idx" ON "category_samples_legacy"("user_id", "type", "start_date", "id");
CREATE INDEX IF NOT EXISTS "category_samples_legacy_user_id_start_date_id_idx" ON "category_samples_legacy"("user_id", "start_date", "id");
