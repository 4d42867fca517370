-- quantity_samples_legacy holds the samples stored one row each before the upgrade to chunks,
-- until the job data-moves moves them (docs/decisions.md, "Online data moves"). A database
-- upgraded by the first text of *_quantity_sample_chunks, which moved them inside the
-- migration, has none: it gets the table empty, with the shape the renamed table has.
CREATE TABLE IF NOT EXISTS "quantity_samples_legacy" (
    "id" BIGINT NOT NULL,
    "user_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "value" DOUBLE PRECISION NOT NULL,
    "unit" TEXT NOT NULL,
    "start_date" TIMESTAMPTZ(3) NOT NULL,
    "end_date" TIMESTAMPTZ(3) NOT NULL,
    "source_name" TEXT,
    "source_bundle_id" TEXT,
    "device_model" TEXT,
    "product_type" TEXT,
    "external_id" TEXT,
    "is_primary_source" BOOLEAN NOT NULL DEFAULT true,
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

    CONSTRAINT "quantity_samples_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "quantity_samples_user_id_fkey" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX IF NOT EXISTS "quantity_samples_user_id_type_start_date_id_idx" ON "quantity_samples_legacy"("user_id", "type", "start_date", "id");
CREATE UNIQUE INDEX IF NOT EXISTS "quantity_samples_user_id_type_provider_dedupe_key_key" ON "quantity_samples_legacy"("user_id", "type", "provider", "dedupe_key");

-- One row per stored sample, moved or not. legacy_ids are unnested with the other arrays (a
-- subscript per sample decompressed the whole array for each).
DROP VIEW "quantity_samples";
CREATE VIEW "quantity_samples" AS
SELECT c.user_id, c.hour AS chunk_hour, r.provider, r.type, coalesce(u.legacy_id, c.chunk_id * 8192 + u.slot - 1) AS id, u.value, r.unit,
  c.hour + u.start_offset * interval '1 millisecond' AS start_date,
  c.hour + (u.start_offset + u.duration_ms) * interval '1 millisecond' AS end_date,
  r.source_name, r.source_bundle_id, r.device_model, r.product_type,
  coalesce(u.external_text, CASE WHEN c.external_uuids_lowercase THEN u.external_uuid::text ELSE upper(u.external_uuid::text) END) AS external_id,
  r.is_primary_source, r.was_user_entered, coalesce(u.metadata, '{}'::jsonb) AS metadata, r.timezone, r.original_unit, r.source, r.source_key,
  r.device, r.on_body, u.ingested_at, u.raw_object_id
FROM "quantity_sample_chunks" c
JOIN "quantity_sample_series" r ON r.user_id = c.user_id AND r.id = c.series_id
CROSS JOIN LATERAL unnest(c.start_offsets, c.durations_ms, c.sample_values, c.ingested_at, c.external_ids, c.external_uuids,
  c.metadata, c.raw_object_ids, c.legacy_ids) WITH ORDINALITY AS u(start_offset, duration_ms, value, ingested_at, external_text, external_uuid,
  metadata, raw_object_id, legacy_id, slot)
WHERE u.value IS NOT NULL
UNION ALL
SELECT l.user_id, date_trunc('hour', l.start_date, 'UTC'), l.provider, l.type, l.id, l.value, l.unit, l.start_date, l.end_date,
  l.source_name, l.source_bundle_id, l.device_model, l.product_type, l.external_id, l.is_primary_source, l.was_user_entered,
  l.metadata - 'timezone' - 'original_unit', l.metadata->>'timezone', l.metadata->>'original_unit', l.source, l.source_key,
  l.device, l.on_body, l.ingested_at, l.raw_object_id
FROM "quantity_samples_legacy" l;
