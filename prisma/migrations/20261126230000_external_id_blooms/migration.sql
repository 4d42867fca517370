-- A Bloom filter of each chunk's provider ids replaces the GIN index over their hashes, which
-- took 56 to 79 bytes a sample (records/samples/external-id-bloom.ts). The filters of stored
-- chunks are built here with the same positions as the writer's: MD5 halves h1, h2; bits
-- (h1 + i * h2) mod m for i in 0..9; m = 32 bits per id rounded up to 64; get_bit order.
ALTER TABLE "quantity_sample_chunks" ADD COLUMN "external_id_bloom" BYTEA;

CREATE FUNCTION svc_external_id_bloom(ids TEXT[]) RETURNS BYTEA LANGUAGE plpgsql IMMUTABLE AS $$
DECLARE
  present TEXT[] := ARRAY(SELECT id FROM unnest(ids) id WHERE id IS NOT NULL);
  bits BIGINT := ceil(cardinality(present) * 32 / 64.0)::bigint * 64;
  filter BYTEA;
  id TEXT;
  h1 BIGINT;
  h2 BIGINT;
  bit INT;
BEGIN
  IF cardinality(present) = 0 THEN RETURN NULL; END IF;
  filter := decode(repeat('00', (bits / 8)::int), 'hex');
  FOREACH id IN ARRAY present LOOP
    h1 := ('x' || lpad(substr(md5(id), 1, 8), 16, '0'))::bit(64)::bigint;
    h2 := ('x' || lpad(substr(md5(id), 9, 8), 16, '0'))::bit(64)::bigint;
    FOR i IN 0..9 LOOP
      bit := ((h1 + i * h2) % bits)::int;
      filter := set_bit(filter, bit, 1);
    END LOOP;
  END LOOP;
  RETURN filter;
END $$;

UPDATE "quantity_sample_chunks" SET "external_id_bloom" = svc_external_id_bloom("external_ids") WHERE "external_ids" IS NOT NULL;

DROP FUNCTION svc_external_id_bloom(TEXT[]);
DROP INDEX "quantity_sample_chunks_external_id_hashes_idx";
ALTER TABLE "quantity_sample_chunks" DROP COLUMN "external_id_hashes";
