-- Category samples, narrow: what repeats across a stream (type, provider, source, device,
-- on_body, source name and bundle, device model, user-entered flag, time zone) lives once in
-- category_sample_series; a sample keeps its times, value, provider id, identity and own
-- metadata, and its zone only where it is not its series' (docs/decisions.md, "Storage of
-- category samples"). Every sample keeps its id.

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

-- A zone is metadata.timezone when it is text (as the writer sets it); anything else under that
-- key (a number, an empty string) stays with the sample's metadata. A series takes the zone
-- most of its samples have.
INSERT INTO "category_sample_series" ("user_id", "type", "provider", "source", "source_key", "device", "on_body", "source_name",
  "source_bundle_id", "device_model", "was_user_entered", "timezone")
SELECT "user_id", "type", "provider", "source", "source_key", "device", "on_body", "source_name", "source_bundle_id",
  "device_model", "was_user_entered",
  mode() WITHIN GROUP (ORDER BY nullif(CASE WHEN jsonb_typeof("metadata"->'timezone') = 'string' THEN "metadata"->>'timezone' END, ''))
FROM "category_samples"
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
ORDER BY 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11;

-- The wide table steps aside (its sequence stays: the samples keep their ids, new ones continue it).
ALTER TABLE "category_samples" DROP CONSTRAINT "category_samples_pkey";
ALTER TABLE "category_samples" DROP CONSTRAINT "category_samples_user_id_fkey";
DROP INDEX "category_samples_user_id_type_provider_dedupe_key_key";
DROP INDEX "category_samples_user_id_type_start_date_id_idx";
DROP INDEX "category_samples_user_id_start_date_id_idx";
ALTER SEQUENCE "category_samples_id_seq" OWNED BY NONE;
ALTER TABLE "category_samples" RENAME TO "category_samples_wide";

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

-- Each sample to its series (the fields compared as one jsonb value, which hashes; nulls match).
INSERT INTO "category_samples" ("user_id", "series_id", "start_date", "id", "end_date", "ingested_at", "identity", "raw_object_id",
  "external_uuid", "value", "external_id", "timezone", "metadata")
SELECT w."user_id", r."id", w."start_date", w."id", w."end_date", w."ingested_at",
  md5(w."provider" || ' ' || w."type" || ' ' || w."dedupe_key")::uuid, w."raw_object_id",
  CASE WHEN w.uppercase_uuid THEN w."external_id"::uuid END, w."value", CASE WHEN w.uppercase_uuid THEN NULL ELSE w."external_id" END,
  CASE WHEN w.zone IS NOT DISTINCT FROM r."timezone" THEN NULL ELSE coalesce(w.zone, '') END,
  nullif(CASE WHEN w.zone IS NULL THEN w."metadata" ELSE w."metadata" - 'timezone' END, '{}'::jsonb)
FROM (
  SELECT *, coalesce("external_id" ~ '^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$', false) AS uppercase_uuid,
    nullif(CASE WHEN jsonb_typeof("metadata"->'timezone') = 'string' THEN "metadata"->>'timezone' END, '') AS zone,
    jsonb_build_array("type", "provider", "source", "source_key", "device", "on_body", "source_name", "source_bundle_id", "device_model",
      "was_user_entered") AS fields
  FROM "category_samples_wide"
) w
JOIN "category_sample_series" r ON r."user_id" = w."user_id"
  AND jsonb_build_array(r."type", r."provider", r."source", r."source_key", r."device", r."on_body", r."source_name", r."source_bundle_id",
    r."device_model", r."was_user_entered") = w.fields
ORDER BY r."user_id", r."id", w."start_date", w."id";

DROP TABLE "category_samples_wide";

-- A series is one user's. Without this the planner multiplies the selectivities of user_id and
-- series_id, expects a handful of samples in a series and sorts all of it for a page instead
-- of reading its key in order (7 ms instead of 1.5 for a page of 100 in the benchmark).
CREATE STATISTICS "category_samples_user_series" (dependencies) ON "user_id", "series_id" FROM "category_samples";

ANALYZE "category_sample_series";
ANALYZE "category_samples";
