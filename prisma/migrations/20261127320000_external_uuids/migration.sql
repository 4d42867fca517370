-- Provider ids shaped as UUIDs are kept as uuid (16 bytes, not 37 as text): HealthKit's
-- uppercase UUIDs were half of a stored sample's bytes. A chunk's UUIDs in the case most of
-- them have go to external_uuids, every other id stays in external_ids; both read back as sent
-- (records/samples/external-id-columns.ts splits them the same way).
ALTER TABLE "quantity_sample_chunks"
  ADD COLUMN "external_uuids" UUID[],
  ADD COLUMN "external_uuids_lowercase" BOOLEAN NOT NULL DEFAULT false;

WITH ids AS (
  SELECT c.user_id, c.series_id, c.hour, c.chunk_id, u.id, u.slot,
    u.id ~ '^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$' AS upper_uuid,
    u.id ~ '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$' AS lower_uuid
  FROM "quantity_sample_chunks" c
  CROSS JOIN LATERAL unnest(c.external_ids) WITH ORDINALITY AS u(id, slot)
  WHERE c.external_ids IS NOT NULL
), chunk_case AS (
  -- A UUID of digits only counts as uppercase, as in external-id-columns.ts.
  SELECT user_id, series_id, hour, chunk_id,
    count(*) FILTER (WHERE lower_uuid AND NOT upper_uuid) > count(*) FILTER (WHERE upper_uuid) AS lowercase
  FROM ids GROUP BY 1, 2, 3, 4
), split AS (
  SELECT i.user_id, i.series_id, i.hour, i.chunk_id, k.lowercase,
    array_agg(CASE WHEN (CASE WHEN k.lowercase THEN i.lower_uuid ELSE i.upper_uuid END) THEN i.id::uuid END ORDER BY i.slot) AS uuids,
    array_agg(CASE WHEN (CASE WHEN k.lowercase THEN i.lower_uuid ELSE i.upper_uuid END) THEN NULL ELSE i.id END ORDER BY i.slot) AS texts
  FROM ids i JOIN chunk_case k USING (user_id, series_id, hour, chunk_id)
  GROUP BY 1, 2, 3, 4, 5
)
UPDATE "quantity_sample_chunks" c SET
  external_uuids = CASE WHEN EXISTS (SELECT 1 FROM unnest(s.uuids) x WHERE x IS NOT NULL) THEN s.uuids END,
  external_ids = CASE WHEN EXISTS (SELECT 1 FROM unnest(s.texts) x WHERE x IS NOT NULL) THEN s.texts END,
  external_uuids_lowercase = s.lowercase
FROM split s
WHERE c.user_id = s.user_id AND c.series_id = s.series_id AND c.hour = s.hour AND c.chunk_id = s.chunk_id;

CREATE OR REPLACE VIEW "quantity_samples" AS
SELECT c.user_id, c.hour AS chunk_hour, r.provider, r.type, coalesce(c.legacy_ids[u.slot], c.chunk_id * 8192 + u.slot - 1) AS id, u.value, r.unit,
  c.hour + u.start_offset * interval '1 millisecond' AS start_date,
  c.hour + (u.start_offset + u.duration_ms) * interval '1 millisecond' AS end_date,
  r.source_name, r.source_bundle_id, r.device_model, r.product_type,
  coalesce(u.external_text, CASE WHEN c.external_uuids_lowercase THEN u.external_uuid::text ELSE upper(u.external_uuid::text) END) AS external_id,
  r.is_primary_source, r.was_user_entered, coalesce(u.metadata, '{}'::jsonb) AS metadata, r.timezone, r.original_unit, r.source, r.source_key,
  r.device, r.on_body, u.ingested_at, u.raw_object_id
FROM "quantity_sample_chunks" c
JOIN "quantity_sample_series" r ON r.user_id = c.user_id AND r.id = c.series_id
CROSS JOIN LATERAL unnest(c.start_offsets, c.durations_ms, c.sample_values, c.ingested_at, c.external_ids, c.external_uuids,
  c.metadata, c.raw_object_ids) WITH ORDINALITY AS u(start_offset, duration_ms, value, ingested_at, external_text, external_uuid,
  metadata, raw_object_id, slot)
WHERE u.value IS NOT NULL;
