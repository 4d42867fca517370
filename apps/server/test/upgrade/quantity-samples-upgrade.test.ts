import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, createDatabase, type Database } from "@svc/db";
import { applyProviderDeletions, computeSampleStats, getSampleStats, listSamples, refreshMergedSampleRollups } from "@svc/core";
import type { connectSql } from "@svc/testing";
import { databaseBeforeMigration } from "../helpers/upgrade.ts";

// The upgrade that groups quantity samples (migration *_quantity_sample_chunks): a database
// holding samples in the old table, one row each, is upgraded, and every sample reads back
// as it did, id included.
const GROUPING = "quantity_sample_chunks";

let url: string;
let sql: Awaited<ReturnType<typeof connectSql>>;
let db: Database;
let legacy: Array<Record<string, unknown>>;
const user = "6f1c2b1e-0000-4000-8000-000000000001";
const other = "6f1c2b1e-0000-4000-8000-000000000002";

beforeAll(async () => {
  ({ url, sql } = await databaseBeforeMigration(GROUPING));
  await sql.query(`INSERT INTO tenants (id, name) VALUES ('6f1c2b1e-0000-4000-8000-0000000000aa', 'upgrade')`);
  await sql.query(
    `INSERT INTO users (id, tenant_id, updated_at) VALUES ($1, '6f1c2b1e-0000-4000-8000-0000000000aa', now()), ($2, '6f1c2b1e-0000-4000-8000-0000000000aa', now())`,
    [user, other],
  );
  // As the old writer stored them: a watch's heart rate every 5 s over three hours (9,000 in
  // one hour's worth would not fit one chunk: the second hour has 9,000 at 0.4 s), a phone's
  // steps with provider ids, weights sent in pounds, and another user's samples.
  await sql.query(
    `INSERT INTO quantity_samples (user_id, type, value, unit, start_date, end_date, metadata, provider, source, source_key, device, on_body, dedupe_key, ingested_at)
     SELECT $1, 'heart_rate', 60 + g % 40, 'count/min', t, t, '{"timezone":"Europe/Berlin","HKMetadataKeyHeartRateMotionContext":1}',
       'apple_health', 'apple', 'apple', 'Watch', true, 'at:' || g, '2026-01-05T10:00:00Z'
     FROM generate_series(0, 2159) g, LATERAL (SELECT timestamptz '2026-01-01T08:00:00Z' + g * interval '5 s' AS t) x`,
    [user],
  );
  await sql.query(
    `INSERT INTO quantity_samples (user_id, type, value, unit, start_date, end_date, metadata, provider, source, source_key, device, on_body, dedupe_key)
     SELECT $1, 'heart_rate', 70, 'count/min', t, t, '{}', 'polar', 'polar', 'polar', 'H10', true, 'at:p' || g
     FROM generate_series(0, 8999) g, LATERAL (SELECT timestamptz '2026-01-01T09:00:00Z' + g * interval '400 ms' AS t) x`,
    [user],
  );
  await sql.query(
    `INSERT INTO quantity_samples (user_id, type, value, unit, start_date, end_date, metadata, provider, source, source_key, device, on_body, dedupe_key, external_id, source_name)
     SELECT $1, 'step_count', 100 + g, 'count', t, t + interval '10 minutes', '{"timezone":"Asia/Kolkata"}', 'apple_health', 'apple', 'apple', 'iPhone', false,
       'id:S' || g, 'S' || g, 'iPhone of A'
     FROM generate_series(0, 99) g, LATERAL (SELECT timestamptz '2026-01-02T00:00:00Z' + g * interval '10 minutes' AS t) x`,
    [user],
  );
  await sql.query(
    `INSERT INTO quantity_samples (user_id, type, value, unit, start_date, end_date, metadata, provider, source, source_key, device, on_body, dedupe_key)
     VALUES ($1, 'body_mass', 81.64663, 'kg', '2026-01-03T07:00:00Z', '2026-01-03T07:00:00Z',
       '{"original_value":180,"original_unit":"lb","timezone":"Europe/Berlin"}', 'withings', 'withings', 'withings', null, false, 'at:w1'),
      ($2, 'heart_rate', 55, 'count/min', '2026-01-01T08:00:00Z', '2026-01-01T08:00:00Z', '{}', 'garmin', 'garmin', 'garmin', 'Venu', true, 'at:o1')`,
    [user, other],
  );
  // Provider ids shaped as UUIDs (stored as uuid by a later migration, *_external_uuids): an
  // hour of uppercase ones (as HealthKit sends them) with one lowercase and one of digits only
  // among them, and an hour of lowercase ones.
  await sql.query(
    `INSERT INTO quantity_samples (user_id, type, value, unit, start_date, end_date, metadata, provider, source, source_key, device, on_body, dedupe_key, external_id)
     SELECT $1, 'heart_rate', 50 + g, 'count/min', t, t, '{}', 'oura', 'oura', 'oura', 'Ring', true, 'id:' || id, id
     FROM generate_series(0, 59) g,
       LATERAL (SELECT timestamptz '2026-01-04T00:00:00Z' + (g % 30) * interval '1 minute' + (g / 30) * interval '1 hour' AS t,
         CASE WHEN g = 7 THEN md5('o' || g)::uuid::text WHEN g = 8 THEN '12345678-1234-4234-8234-123456789012'
           WHEN g < 30 THEN upper(md5('o' || g)::uuid::text) ELSE md5('o' || g)::uuid::text END AS id) x`,
    [user],
  );
  legacy = (await sql.query("SELECT * FROM quantity_samples ORDER BY id")).rows;
  await applyMigrations(url);
  db = createDatabase(url, { max: 2 });
});

afterAll(async () => {
  await sql?.end();
  await db?.$disconnect();
});

type Rollup = { user_id: unknown; type: unknown; provider: unknown; quarter: Date; count: number; sum: number; min: number; max: number };

describe("the upgrade to grouped quantity samples", () => {
  it("keeps every sample with its id and every field, grouped per series and hour", async () => {
    const { rows: after } = await sql.query(
      `SELECT *, metadata || jsonb_strip_nulls(jsonb_build_object('timezone', timezone, 'original_unit', original_unit)) AS full_metadata
       FROM quantity_samples ORDER BY id`,
    );
    expect(after).toHaveLength(legacy.length);
    for (const [index, old] of legacy.entries()) {
      const row = after[index]!;
      const fields = ["id", "user_id", "type", "value", "unit", "start_date", "end_date", "source_name", "source_bundle_id", "device_model",
        "product_type", "external_id", "is_primary_source", "was_user_entered", "provider", "source", "source_key", "device", "on_body",
        "ingested_at", "raw_object_id"];
      for (const field of fields) expect(row[field], `${field} of sample ${String(old.id)}`).toEqual(old[field]);
      expect(row.full_metadata).toEqual(old.metadata);
    }
    const { rows: chunks } = await sql.query("SELECT series_id, hour, sample_count FROM quantity_sample_chunks ORDER BY hour, series_id, chunk_id");
    // Watch: 3 hours; Polar: 9,000 in one hour, in two chunks; steps: 17 hours; one weight; the other user's one.
    expect(chunks.map((c) => c.sample_count).reduce((a, b) => a + b, 0)).toBe(legacy.length);
    expect(chunks.filter((c) => c.sample_count === 8192 || c.sample_count === 808)).toHaveLength(2);
    const { rows: uuidChunks } = await sql.query(
      `SELECT external_uuids_lowercase AS lowercase, cardinality(array_remove(external_uuids, NULL)) AS uuids,
         cardinality(array_remove(external_ids, NULL)) AS texts
       FROM quantity_sample_chunks WHERE external_uuids IS NOT NULL ORDER BY hour`,
    );
    // The uppercase hour keeps its lowercase id as text; the digits-only one is a uuid.
    expect(uuidChunks).toEqual([
      { lowercase: false, uuids: 29, texts: 1 },
      { lowercase: true, uuids: 30, texts: null },
    ]);
  });

  it("answers reads as before: samples with their metadata, and new samples get larger ids", async () => {
    const page = await listSamples(db, user, { type: "body_mass", view: "all", limit: 10 });
    expect(page.data).toEqual([
      expect.objectContaining({
        id: Number(legacy.find((r) => r.type === "body_mass")!.id),
        value: 81.64663,
        unit: "kg",
        metadata: { original_value: 180, original_unit: "lb", timezone: "Europe/Berlin" },
      }),
    ]);
    const steps = await listSamples(db, user, { type: "step_count", view: "all", limit: 1000 });
    expect(steps.data.map((s) => [s.id, s.external_id, s.source_name, s.metadata])).toEqual(
      legacy.filter((r) => r.type === "step_count").map((r) => [Number(r.id), r.external_id, "iPhone of A", { timezone: "Asia/Kolkata" }]),
    );
    const stats = await getSampleStats(db, user, { type: "heart_rate", start: "2026-01-01", end: "2026-01-02", interval: "day", tz: "UTC", view: "all" });
    expect(stats.buckets.map((b) => [b.provider, b.count])).toEqual([["apple_health", 2160], ["polar", 9000]]);
    const { rows } = await sql.query("SELECT max(id)::bigint AS id FROM quantity_samples");
    const next = (await sql.query("SELECT nextval('quantity_sample_chunk_ids') * 8192 AS id")).rows[0]!.id;
    expect(BigInt(next)).toBeGreaterThan(BigInt(rows[0]!.id));
  });

  it("fills the rollups of the stored samples; stats read them, the merged ones once the job ran", async () => {
    const { rows } = await sql.query(
      `SELECT r.user_id, r.type, r.provider, x.quarter, sum(x.sample_count)::int AS count, sum(x.value_sum) AS sum,
         min(x.value_min) AS min, max(x.value_max) AS max
       FROM quantity_sample_rollups x JOIN quantity_sample_series r ON r.user_id = x.user_id AND r.id = x.series_id
       GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4`,
    );
    // The same from the samples as they were before the upgrade.
    const expected = new Map<string, Rollup>();
    for (const old of legacy) {
      const quarter = new Date(Math.floor((old.start_date as Date).getTime() / 900_000) * 900_000);
      const id = JSON.stringify([old.user_id, old.type, old.provider, quarter]);
      const value = old.value as number;
      const row = expected.get(id) ?? { user_id: old.user_id, type: old.type, provider: old.provider, quarter, count: 0, sum: 0, min: value, max: value };
      expected.set(id, { ...row, count: row.count + 1, sum: row.sum + value, min: Math.min(row.min, value), max: Math.max(row.max, value) });
    }
    const summary = (list: Rollup[]) =>
      list
        .map((row) => [JSON.stringify([row.user_id, row.type, row.provider, row.quarter]), row.count, row.sum, row.min, row.max] as const)
        .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    expect(summary(rows)).toEqual(summary([...expected.values()]));

    // Every user's type is stale for the merged view until the job computes it.
    const { rows: stale } = await sql.query("SELECT user_id, type FROM quantity_sample_merged_dirty ORDER BY 1, 2");
    expect(stale.map((row) => [row.user_id, row.type])).toEqual([
      [user, "body_mass"],
      [user, "heart_rate"],
      [user, "step_count"],
      [other, "heart_rate"],
    ]);
    const requests = [
      { type: "heart_rate", start: "2026-01-01", end: "2026-01-02", interval: "hour" as const, tz: "Europe/Berlin" },
      { type: "step_count", start: "2026-01-01", end: "2026-01-04", interval: "day" as const, tz: "Asia/Kolkata" },
    ];
    for (const request of requests) {
      const merged = { ...request, view: "merged" as const };
      // Heart rate has two streams (a watch and a strap); the steps one, whose merged view is the view all.
      expect((await computeSampleStats(db, user, merged)).source).toBe(request.type === "heart_rate" ? "samples" : "rollups");
      await refreshMergedSampleRollups(db, user, request.type);
      for (const view of ["all", "merged"] as const) {
        const fromRollups = await computeSampleStats(db, user, { ...request, view });
        expect(fromRollups.source).toBe("rollups");
        expect(fromRollups.stats).toEqual((await computeSampleStats(db, user, { ...request, view }, { useRollups: false })).stats);
      }
    }
  });

  it("finds an upgraded sample by its provider id: the provider's deletion of one step sample removes it alone", async () => {
    const deleted = await db.$transaction((tx) => applyProviderDeletions(tx, { userId: user, provider: "apple_health" }, ["S5"]));
    expect(deleted).toBe(1);
    const steps = await listSamples(db, user, { type: "step_count", view: "all", limit: 1000 });
    expect(steps.data.map((s) => s.external_id)).toEqual(legacy.filter((r) => r.type === "step_count" && r.external_id !== "S5").map((r) => r.external_id));
    // S5 (00:50) was alone in its quarter hour: its rollup is gone.
    const { rows } = await sql.query(
      `SELECT x.quarter FROM quantity_sample_rollups x JOIN quantity_sample_series r ON r.user_id = x.user_id AND r.id = x.series_id
       WHERE r.type = 'step_count' AND x.quarter >= '2026-01-02T00:30:00Z' AND x.quarter < '2026-01-02T01:15:00Z' ORDER BY 1`,
    );
    expect(rows.map((row) => (row.quarter as Date).toISOString())).toEqual(["2026-01-02T00:30:00.000Z", "2026-01-02T01:00:00.000Z"]);
  });
});
