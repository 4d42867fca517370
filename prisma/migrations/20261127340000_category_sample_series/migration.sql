-- Category samples, narrow: what repeats across a stream (type, provider, source, device,
-- on_body, source name and bundle, device model, user-entered flag, time zone) lives once in
-- category_sample_series; a sample keeps its times, value, provider id, identity and own
-- metadata, and its zone only where it is not its series' (docs/decisions.md, "Storage of
-- category samples"). Every sample keeps its id.
--
-- The samples stored so far stay where they are, in the wide table renamed
-- category_samples_legacy, until the job data-moves puts them in series a batch at a time while
-- svc serves; reads take them from there until then (docs/decisions.md, "Online data moves").
-- The wide table steps aside first: the narrow one takes its name, the names of its keys and its
-- sequence (samples keep their ids, new ones continue it); the legacy table keeps its rows,
-- columns and indexes under names of its own, and takes no new rows.
ALTER TABLE "category_samples" RENAME TO "category_samples_legacy";
ALTER TABLE "category_samples_legacy" RENAME CONSTRAINT "category_samples_pkey" TO "category_samples_legacy_pkey";
ALTER TABLE "category_samples_legacy" RENAME CONSTRAINT "category_samples_user_id_fkey" TO "category_samples_legacy_user_id_fkey";
ALTER INDEX "category_samples_user_id_type_provider_dedupe_key_key" RENAME TO "category_samples_legacy_user_id_type_provider_dedupe_key_key";
ALTER INDEX "category_samples_user_id_type_start_date_id_idx" RENAME TO "category_samples_legacy_user_id_type_start_date_id_idx";
ALTER INDEX "category_samples_user_id_start_date_id_idx" RENAME TO "category_samples_legacy_user_id_start_date_id_idx";
ALTER TABLE "category_samples_legacy" ALTER COLUMN "id" DROP DEFAULT;
ALTER SEQUENCE "category_samples_id_seq" OWNED BY NONE;

CREATE TABLE "category_sample_series" (
    "id" BIGSERIAL NOT NULL,
    "user_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "source" TEXT,
    "source_key" TEXT NOT NULL,
    "device" TEXT,
    "on_body" BOOLEAN NOT NULL,
    "source_name" TEXT,
    "source_bundle_id" TEXT,
    "device_model" TEXT,
    "was_user_entered" BOOLEAN NOT NULL,
    -- metadata.timezone of its samples; a sample in another zone keeps its own. Not part of
    -- the series' key: a traveller's samples would make a series per zone.
    "timezone" TEXT,

    CONSTRAINT "category_sample_series_pkey" PRIMARY KEY ("user_id", "id")
);

-- Nulls not distinct: a series is found again by its fields, nulls included.
CREATE UNIQUE INDEX "category_sample_series_fields_key" ON "category_sample_series"("user_id", "type", "provider", "source_key",
  "on_body", "source", "device", "source_name", "source_bundle_id", "device_model", "was_user_entered") NULLS NOT DISTINCT;

ALTER TABLE "category_sample_series" ADD CONSTRAINT "category_sample_series_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION;

CREATE TABLE "category_samples" (
    "user_id" UUID NOT NULL,
    "series_id" BIGINT NOT NULL,
    "start_date" TIMESTAMPTZ(3) NOT NULL,
    "id" BIGINT NOT NULL DEFAULT nextval('category_samples_id_seq'),
    "end_date" TIMESTAMPTZ(3) NOT NULL,
    "ingested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    -- md5(provider || ' ' || type || ' ' || dedupe key) as a uuid (category-sample-repository.ts):
    -- the sample's identity within its user, whatever series it lies in.
    "identity" UUID NOT NULL,
    "raw_object_id" UUID,
    -- The provider's id when it is an uppercase UUID (HealthKit's): 16 bytes instead of 37.
    "external_uuid" UUID,
    "value" TEXT NOT NULL,
    -- The provider's id when it is not in external_uuid.
    "external_id" TEXT,
    -- Its zone when not its series' ('' for none); null: its series' zone.
    "timezone" TEXT,
    -- Its own metadata, without the zone; null when empty.
    "metadata" JSONB,

    CONSTRAINT "category_samples_pkey" PRIMARY KEY ("user_id", "series_id", "start_date", "id")
);
ALTER SEQUENCE "category_samples_id_seq" OWNED BY "category_samples"."id";

CREATE UNIQUE INDEX "category_samples_user_id_identity_key" ON "category_samples"("user_id", "identity");

ALTER TABLE "category_samples" ADD CONSTRAINT "category_samples_user_id_series_id_fkey" FOREIGN KEY ("user_id", "series_id") REFERENCES "category_sample_series"("user_id", "id") ON DELETE CASCADE ON UPDATE NO ACTION;

-- A series is one user's. Without this the planner multiplies the selectivities of user_id and
-- series_id, expects a handful of samples in a series and sorts all of it for a page instead
-- of reading its key in order (7 ms instead of 1.5 for a page of 100 in the benchmark).
CREATE STATISTICS "category_samples_user_series" (dependencies) ON "user_id", "series_id" FROM "category_samples";

ANALYZE "category_sample_series";
ANALYZE "category_samples";
