import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, createDatabase, type Database, readMigrationState, REPLACED_CHECKSUMS } from "@svc/db";
import {
  applyProviderDeletions,
  computeSampleStats,
  findSampleTypesByExternalId,
  getCoverage,
  getSampleStats,
  listRecordZones,
  listSamples,
  moveLegacyData,
  moveLegacySampleBatch,
  moveUserLegacySamples,
  refreshMergedSampleRollups,
  writeQuantitySamples,
} from "@svc/core";
import type { connectSql } from "@svc/testing";
import { databaseBeforeMigration } from "../helpers/upgrade.ts";

// The upgrade that groups quantity samples (migration *_quantity_sample_chunks): a database
// holding samples in the old table, one row each, is upgraded; the job data-moves then moves
// them into chunks a batch at a time while svc serves. Every read answers the same before the
// move, half-way through it and after it, and every sample reads back as it did, id included.
const GROUPING = "quantity_sample_chunks";
const GROUPING_MIGRATION = "20261126181143_quantity_sample_chunks";

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
  // The streams, as that release's writer kept them with every sample it stored.
  await sql.query(
    `INSERT INTO quantity_sample_streams (user_id, type, provider, source_key, on_body, max_duration_seconds, first_start, last_start)
     SELECT user_id, type, provider, source_key, on_body, ceil(extract(epoch FROM max(end_date - start_date)))::int, min(start_date), max(start_date)
     FROM quantity_samples GROUP BY 1, 2, 3, 4, 5`,
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

const TYPES = ["heart_rate", "step_count", "body_mass"] as const;
const VIEWS = ["all", "merged"] as const;
/** A sample written while the move is under way (to the other user, whose rows the writer moves first). */
const written = { user_id: other, type: "heart_rate", provider: "garmin", start_date: new Date("2026-01-01T08:00:05Z"), value: 56 };

/** Every page of a type in a view, `limit` at a time, through its cursors (at most `pages` of them). */
async function pagesOf(userId: string, type: string, view: (typeof VIEWS)[number], limit: number, start?: string, pages = Infinity) {
  const all: unknown[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < pages; n++) {
    const page = await listSamples(db, userId, { type, view, limit, start, cursor });
    all.push(page);
    cursor = page.next_cursor ?? undefined;
    if (!cursor) break;
  }
  return all;
}

/** What the first user reads: every page of each type in both views, small pages across the hours a batch moves, stats, coverage, zones. */
async function readEverything() {
  const reads: Record<string, unknown> = {};
  for (const type of TYPES) {
    for (const view of VIEWS) {
      reads[`${type} ${view}`] = await pagesOf(user, type, view, 1000);
      reads[`${type} ${view} by 7`] = await pagesOf(user, type, view, 7, "2026-01-01T08:59:30Z", 4);
    }
  }
  for (const view of VIEWS) {
    reads[`stats hour ${view}`] = await getSampleStats(db, user, { type: "heart_rate", start: "2026-01-01", end: "2026-01-02", interval: "hour", tz: "Europe/Berlin", view });
    reads[`stats day ${view}`] = await getSampleStats(db, user, { type: "step_count", start: "2026-01-01", end: "2026-01-04", interval: "day", tz: "Asia/Kolkata", view });
  }
  reads.coverage = await getCoverage(db, user, { start: "2026-01-01", end: "2026-01-06" });
  reads.zones = await listRecordZones(db, { userId: user, start: new Date("2026-01-01"), end: new Date("2026-01-06"), sampleTypes: [...TYPES] });
  return reads;
}

async function counts() {
  const { rows } = await sql.query(
    `SELECT (SELECT count(*) FROM quantity_samples_legacy)::int AS legacy, (SELECT coalesce(sum(sample_count), 0) FROM quantity_sample_chunks)::int AS chunked`,
  );
  return rows[0] as { legacy: number; chunked: number };
}

/** Every sample, moved or not, as the old table held it (the view quantity_samples unions both). */
async function expectEverySampleAsBefore(added: ReadonlyArray<typeof written> = []) {
  const { rows: after } = await sql.query(
    `SELECT *, metadata || jsonb_strip_nulls(jsonb_build_object('timezone', timezone, 'original_unit', original_unit)) AS full_metadata
     FROM quantity_samples ORDER BY id`,
  );
  expect(after).toHaveLength(legacy.length + added.length);
  for (const [index, old] of legacy.entries()) {
    const row = after[index]!;
    const fields = ["id", "user_id", "type", "value", "unit", "start_date", "end_date", "source_name", "source_bundle_id", "device_model",
      "product_type", "external_id", "is_primary_source", "was_user_entered", "provider", "source", "source_key", "device", "on_body",
      "ingested_at", "raw_object_id"];
    for (const field of fields) expect(row[field], `${field} of sample ${String(old.id)}`).toEqual(old[field]);
    expect(row.full_metadata).toEqual(old.metadata);
  }
}

describe("the upgrade to grouped quantity samples", () => {
  let before: Record<string, unknown>;

  it("leaves the samples in the legacy table and answers every read from there", async () => {
    expect(await counts()).toEqual({ legacy: legacy.length, chunked: 0 });
    await expectEverySampleAsBefore();
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
    before = await readEverything();
  });

  it("moves them a batch at a time while every read answers the same; a batch that fails moves nothing", async () => {
    // A crash half-way through a move: its transaction takes nothing out of the legacy table.
    await expect(
      db.$transaction(async (tx) => {
        await moveUserLegacySamples(tx, user, ["heart_rate", "step_count"]);
        throw new Error("crash");
      }),
    ).rejects.toThrow("crash");
    expect(await counts()).toEqual({ legacy: legacy.length, chunked: 0 });

    // The first user's weight (its whole type), then the watch's first hour of heart rate (whole
    // hours up to 1,000 samples): the rest of that hour's type stays behind.
    expect(await moveLegacySampleBatch(db, 1000)).toBe(1);
    expect(await moveLegacySampleBatch(db, 1000)).toBe(720);
    expect(await counts()).toEqual({ legacy: legacy.length - 721, chunked: 721 });
    await expectEverySampleAsBefore();
    expect(await readEverything()).toEqual(before);

    // A write for the other user moves that user's samples first, then stores the new one.
    await db.$transaction((tx) =>
      writeQuantitySamples(tx, { userId: other, provider: written.provider }, [
        { type: written.type, value: written.value, unit: "count/min", start_date: written.start_date, source: "garmin", device: "Venu", on_body: true },
      ]),
    );
    const { rows } = await sql.query("SELECT count(*)::int AS n FROM quantity_samples_legacy WHERE user_id = $1", [other]);
    expect(rows[0]!.n).toBe(0);
    const theirs = await listSamples(db, other, { type: "heart_rate", view: "all", limit: 10 });
    expect(theirs.data.map((s) => [s.id, s.value, s.start_date])).toEqual([
      [Number(legacy.find((r) => r.user_id === other)!.id), 55, "2026-01-01T08:00:00.000Z"],
      [expect.any(Number), 56, "2026-01-01T08:00:05.000Z"],
    ]);
    expect(await readEverything()).toEqual(before);
  });

  it("after the job's runs: every sample in chunks per series and hour, with its id and every field, and reads as before", async () => {
    expect(await moveLegacyData(db, { maxBatches: 1 })).toEqual({ moved: expect.objectContaining({ quantity_samples_legacy: 10_500 }), done: false });
    expect((await moveLegacyData(db)).done).toBe(true);
    expect(await moveLegacyData(db)).toEqual({ moved: expect.objectContaining({ quantity_samples_legacy: 0 }), done: true });
    expect(await counts()).toEqual({ legacy: 0, chunked: legacy.length + 1 });
    await expectEverySampleAsBefore([written]);
    expect(await readEverything()).toEqual(before);

    const { rows: chunks } = await sql.query("SELECT series_id, hour, sample_count FROM quantity_sample_chunks ORDER BY hour, series_id, chunk_id");
    // Watch: 3 hours; Polar: 9,000 in one hour, in two chunks; steps: 17 hours; one weight; the other user's two.
    expect(chunks.map((c) => c.sample_count).reduce((a, b) => a + b, 0)).toBe(legacy.length + 1);
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
    // New samples get ids past every old one.
    const next = (await sql.query("SELECT nextval('quantity_sample_chunk_ids') * 8192 AS id")).rows[0]!.id;
    expect(BigInt(next)).toBeGreaterThan(BigInt(legacy.at(-1)!.id as string));
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
    for (const old of [...legacy, written]) {
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

describe("a database upgraded by the first text of the grouping migration (which moved the samples inside it)", () => {
  /** The legacy table's columns, indexes and constraints (the NOT NULL ones are in the columns). */
  async function shapeOfLegacyTable(on: Awaited<ReturnType<typeof connectSql>>) {
    const columns = await on.query(
      `SELECT column_name, data_type, datetime_precision, is_nullable FROM information_schema.columns
       WHERE table_name = 'quantity_samples_legacy' ORDER BY ordinal_position`,
    );
    const indexes = await on.query(`SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'quantity_samples_legacy' ORDER BY 1`);
    const constraints = await on.query(
      `SELECT conname, pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conrelid = 'quantity_samples_legacy'::regclass AND contype <> 'n' ORDER BY 1`,
    );
    return { columns: columns.rows, indexes: indexes.rows, constraints: constraints.rows };
  }

  it("is accepted as applied, and gets the legacy table empty, shaped as the renamed one", async () => {
    const earlier = await databaseBeforeMigration("legacy_quantity_samples");
    const renamed = await shapeOfLegacyTable(earlier.sql);
    // What the first text left: no legacy table, and its checksum in the bookkeeping.
    await earlier.sql.query("DROP TABLE quantity_samples_legacy");
    await earlier.sql.query(`UPDATE "_prisma_migrations" SET checksum = $1 WHERE migration_name = $2`, [
      REPLACED_CHECKSUMS[GROUPING_MIGRATION]![0],
      GROUPING_MIGRATION,
    ]);
    expect(await applyMigrations(earlier.url)).toEqual(earlier.migrations.slice(earlier.at).map((m) => m.name));
    expect((await readMigrationState(earlier.url)).status).toBe("up-to-date");
    expect(await shapeOfLegacyTable(earlier.sql)).toEqual(renamed);
    await earlier.sql.end();
  });
});

describe("samples not moved yet", () => {
  it("are found and deleted by their provider ids where they are", async () => {
    const upgraded = await databaseBeforeMigration(GROUPING);
    const tenant = "6f1c2b1e-0000-4000-8000-0000000000bb";
    const someone = "6f1c2b1e-0000-4000-8000-000000000003";
    await upgraded.sql.query(`INSERT INTO tenants (id, name) VALUES ($1, 'upgrade')`, [tenant]);
    await upgraded.sql.query(`INSERT INTO users (id, tenant_id, updated_at) VALUES ($1, $2, now())`, [someone, tenant]);
    await upgraded.sql.query(
      `INSERT INTO quantity_samples (user_id, type, value, unit, start_date, end_date, metadata, provider, source, source_key, device, on_body, dedupe_key, external_id)
       SELECT $1, 'step_count', 100 + g, 'count', t, t + interval '10 minutes', '{}', 'apple_health', 'apple', 'apple', 'iPhone', false, 'id:S' || g, 'S' || g
       FROM generate_series(0, 9) g, LATERAL (SELECT timestamptz '2026-01-02T00:00:00Z' + g * interval '10 minutes' AS t) x`,
      [someone],
    );
    await upgraded.sql.query(
      `INSERT INTO quantity_sample_streams (user_id, type, provider, source_key, on_body, max_duration_seconds, first_start, last_start)
       VALUES ($1, 'step_count', 'apple_health', 'apple', false, 600, '2026-01-02T00:00:00Z', '2026-01-02T01:30:00Z')`,
      [someone],
    );
    await applyMigrations(upgraded.url);
    const on = createDatabase(upgraded.url, { max: 2 });
    try {
      const found = await findSampleTypesByExternalId(on, { userId: someone, provider: "apple_health", types: ["step_count"], externalIds: ["S3", "S4", "X"] });
      expect(found.map((row) => row.external_id).sort()).toEqual(["S3", "S4"]);
      expect(await on.$transaction((tx) => applyProviderDeletions(tx, { userId: someone, provider: "apple_health" }, ["S3"]))).toBe(1);
      const steps = await listSamples(on, someone, { type: "step_count", view: "all", limit: 100 });
      expect(steps.data.map((s) => s.external_id)).toEqual(["S0", "S1", "S2", "S4", "S5", "S6", "S7", "S8", "S9"]);
      const { rows } = await upgraded.sql.query("SELECT count(*)::int AS n FROM quantity_samples_legacy");
      expect(rows[0]!.n).toBe(9);
    } finally {
      await on.$disconnect();
      await upgraded.sql.end();
    }
  });
});
