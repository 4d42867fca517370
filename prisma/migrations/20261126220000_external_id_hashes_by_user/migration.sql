-- Provider-id hashes seeded by the user (externalIdHashes in sample-chunk-repository.ts): the
-- same id at two users (a date, a log number) is then two keys of the GIN index, and a lookup
-- by id reads only the user's chunks.
UPDATE quantity_sample_chunks
SET external_id_hashes = ARRAY(SELECT hashtextextended(e, hashtextextended(user_id::text, 0)) FROM unnest(external_ids) e WHERE e IS NOT NULL)
WHERE external_ids IS NOT NULL;
