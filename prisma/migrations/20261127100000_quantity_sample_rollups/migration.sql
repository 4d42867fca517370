-- Rollups for samples/stats (docs/decisions.md, "Rollups of quantity samples"): count, sum, min
-- and max of the samples of a series that start in one quarter hour of UTC. Every zone's offset
-- today is a multiple of 15 minutes, so a local hour or day is a union of quarter hours.
-- Written only with SQL, in the transaction that writes the chunks; partitioned like the chunks.
CREATE TABLE "quantity_sample_rollups" (
    "user_id" UUID NOT NULL,
    "series_id" BIGINT NOT NULL,
    -- The start of the quarter hour (UTC) the samples start in.
    "quarter" TIMESTAMPTZ(3) NOT NULL,
    "sample_count" INTEGER NOT NULL,
    "value_sum" DOUBLE PRECISION NOT NULL,
    "value_min" DOUBLE PRECISION NOT NULL,
    "value_max" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "quantity_sample_rollups_pkey" PRIMARY KEY ("user_id", "series_id", "quarter"),
    CONSTRAINT "quantity_sample_rollups_series_fkey" FOREIGN KEY ("user_id", "series_id")
      REFERENCES "quantity_sample_series"("user_id", "id") ON DELETE CASCADE
) PARTITION BY RANGE ("quarter");

-- The same in the merged view: the samples of a series that no better ranked stream matched.
-- Computed by the job sample-merged-rollups from the merged view over the ranges marked in
-- quantity_sample_merged_dirty.
CREATE TABLE "quantity_sample_merged_rollups" (
    "user_id" UUID NOT NULL,
    "series_id" BIGINT NOT NULL,
    "quarter" TIMESTAMPTZ(3) NOT NULL,
    "sample_count" INTEGER NOT NULL,
    "value_sum" DOUBLE PRECISION NOT NULL,
    "value_min" DOUBLE PRECISION NOT NULL,
    "value_max" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "quantity_sample_merged_rollups_pkey" PRIMARY KEY ("user_id", "series_id", "quarter"),
    CONSTRAINT "quantity_sample_merged_rollups_series_fkey" FOREIGN KEY ("user_id", "series_id")
      REFERENCES "quantity_sample_series"("user_id", "id") ON DELETE CASCADE
) PARTITION BY RANGE ("quarter");

DO $$
DECLARE
  t TEXT;
BEGIN
  FOREACH t IN ARRAY ARRAY['quantity_sample_rollups', 'quantity_sample_merged_rollups'] LOOP
    EXECUTE format('CREATE TABLE "svc_partitions".%I PARTITION OF %I FOR VALUES FROM (MINVALUE) TO (%L)',
      t || '_before_2000', t, make_timestamptz(2000, 1, 1, 0, 0, 0, 'UTC'));
    FOR year IN 2000..2026 LOOP
      EXECUTE format('CREATE TABLE "svc_partitions".%I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
        t || '_' || year, t, make_timestamptz(year, 1, 1, 0, 0, 0, 'UTC'), make_timestamptz(year + 1, 1, 1, 0, 0, 0, 'UTC'));
    END LOOP;
    -- The months after 2026 are made by partitions-maintain, as for the chunks.
    EXECUTE format('CREATE TABLE "svc_partitions".%I PARTITION OF %I DEFAULT', t || '_default', t);
  END LOOP;
END $$;

-- The hours (UTC) of a user's samples of a type whose merged rollups may be stale: the hull of
-- every change since the job last ran (a change at a sample can change the merged view of the
-- samples within the merge's reach, which readers and the job add). All of time is
-- 0001-01-01 to 9999-01-01. Stats read the merged rollups only where no such range reaches.
CREATE TABLE "quantity_sample_merged_dirty" (
    "user_id" UUID NOT NULL REFERENCES "users"("id") ON DELETE CASCADE,
    "type" TEXT NOT NULL,
    "from_hour" TIMESTAMPTZ(3) NOT NULL,
    "to_hour" TIMESTAMPTZ(3) NOT NULL,
    "marked_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),

    CONSTRAINT "quantity_sample_merged_dirty_pkey" PRIMARY KEY ("user_id", "type")
);

-- A deleted series (a provider's erasure, a consent revocation) can change the merged view of
-- the other series of its type at any time: their merged rollups are marked stale in the same
-- statement, whichever code deletes it. A user being deleted is left out (its rows go with it).
CREATE FUNCTION svc_mark_merged_rollups_stale_on_series_delete() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "quantity_sample_merged_dirty" (user_id, type, from_hour, to_hour)
  SELECT DISTINCT o.user_id, o.type, timestamptz '0001-01-01 00:00:00+00', timestamptz '9999-01-01 00:00:00+00'
  FROM deleted_series o
  WHERE EXISTS (SELECT 1 FROM "users" u WHERE u.id = o.user_id)
  ORDER BY 1, 2
  ON CONFLICT (user_id, type) DO UPDATE SET from_hour = excluded.from_hour, to_hour = excluded.to_hour, marked_at = now();
  RETURN NULL;
END $$;

CREATE TRIGGER "quantity_sample_series_merged_rollups_stale" AFTER DELETE ON "quantity_sample_series"
  REFERENCING OLD TABLE AS deleted_series FOR EACH STATEMENT
  EXECUTE FUNCTION svc_mark_merged_rollups_stale_on_series_delete();

-- The merged view of a type with one stream keeps every sample: stats read the rollups of the
-- view all, and the job keeps no merged rollup for it. A type's second stream (a new device or
-- provider) makes its merged rollups stale for all of time, to be computed for the first time.
CREATE FUNCTION svc_mark_merged_rollups_stale_on_second_stream() RETURNS TRIGGER LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "quantity_sample_merged_dirty" (user_id, type, from_hour, to_hour)
  SELECT n.user_id, n.type, timestamptz '0001-01-01 00:00:00+00', timestamptz '9999-01-01 00:00:00+00'
  FROM (SELECT DISTINCT user_id, type, count(*) OVER (PARTITION BY user_id, type) AS added FROM new_streams) n
  WHERE (SELECT count(*) FROM "quantity_sample_streams" s WHERE s.user_id = n.user_id AND s.type = n.type) BETWEEN 2 AND n.added + 1
  ORDER BY 1, 2
  ON CONFLICT (user_id, type) DO UPDATE SET from_hour = excluded.from_hour, to_hour = excluded.to_hour, marked_at = now();
  RETURN NULL;
END $$;

CREATE TRIGGER "quantity_sample_streams_merged_rollups_stale" AFTER INSERT ON "quantity_sample_streams"
  REFERENCING NEW TABLE AS new_streams FOR EACH STATEMENT
  EXECUTE FUNCTION svc_mark_merged_rollups_stale_on_second_stream();

-- The samples stored so far. Their merged rollups are made by the job, all of time marked stale.
INSERT INTO "quantity_sample_rollups" (user_id, series_id, quarter, sample_count, value_sum, value_min, value_max)
SELECT c.user_id, c.series_id, c.hour + (u.start_offset / 900000) * interval '15 minutes', count(*)::int, sum(u.value),
  min(u.value), max(u.value)
FROM "quantity_sample_chunks" c
CROSS JOIN LATERAL unnest(c.start_offsets, c.sample_values) AS u(start_offset, value)
WHERE u.value IS NOT NULL
GROUP BY 1, 2, 3
ORDER BY 1, 2, 3;

INSERT INTO "quantity_sample_merged_dirty" (user_id, type, from_hour, to_hour)
SELECT DISTINCT user_id, type, timestamptz '0001-01-01 00:00:00+00', timestamptz '9999-01-01 00:00:00+00'
FROM "quantity_sample_series";
