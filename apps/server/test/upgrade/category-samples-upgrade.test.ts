import { createHash, randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, createDatabase, type Database } from "@svc/db";
import {
  applyProviderDeletions,
  createUser,
  getCoverage,
  LEGACY_MOVES,
  listCategorySamples,
  listMenstrualCycles,
  moveLegacyData,
  recomputeMenstrualCycles,
  recordIdentity,
  setSourceOrder,
  writeCategorySamples,
  type CategorySampleDto,
  type CategorySampleRecord,
} from "@svc/core";
import type { connectSql } from "@svc/testing";
import { databaseBeforeMigration } from "../helpers/upgrade.ts";

// The upgrade that stores category samples narrow, beside their series (migration
// *_category_sample_series): a database holding category samples in the old wide table, as the
// old writer stored them, is upgraded. The migration leaves them in category_samples_legacy; the
// job data-moves moves them a series at a time while svc serves (docs/decisions.md, "Online data
// moves"). Before, between and after the batches every read answers as it did from the old rows,
// ids included; a writer of a user moves the user's samples first, so they are found again by
// their identity. A database upgraded by the migration's first text, which moved them inside
// the migration, is accepted and ends with the same tables.
const MIGRATION = "category_sample_series";
/** The migration's first text (it moved the samples inside the migration), with its checksum. */
const FIRST_TEXT = readFileSync(new URL("./original-texts/20261127340000_category_sample_series.sql", import.meta.url), "utf8");
const FIRST_CHECKSUM = "498376e4930adae00647a2b97f8bfc494663ed670b81bed877d4a412e9cbb6ad";
const TENANT = "5c3a0000-0000-4000-8000-0000000000aa";
const user = "5c3a0000-0000-4000-8000-000000000001";
const other = "5c3a0000-0000-4000-8000-000000000002";
const T0 = Date.parse("2026-01-05T00:00:00Z");
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A row of the old table, as the old writer stored it. */
interface LegacyRow {
  user_id: string;
  type: string;
  value: string;
  start_date: Date;
  end_date: Date;
  source_name: string | null;
  source_bundle_id: string | null;
  device_model: string | null;
  external_id: string | null;
  was_user_entered: boolean;
  metadata: Record<string, unknown>;
  provider: string;
  source: string | null;
  source_key: string;
  device: string | null;
  on_body: boolean;
  ingested_at: Date;
  raw_object_id: string | null;
  dedupe_key: string;
}

const WATCH = { source: "apple", device: "Apple Watch", on_body: true, source_name: "Apple Watch von Anna", source_bundle_id: "com.apple.health.6D2D5F3A", device_model: "Watch", was_user_entered: false };
const HEALTH_APP = { source: "apple", device: "iPhone", on_body: false, source_name: "Health", source_bundle_id: "com.apple.Health", device_model: "iPhone", was_user_entered: true };
const RING = { source: "oura", device: "Oura Ring", on_body: true, source_name: null, source_bundle_id: null, device_model: null, was_user_entered: false };

let ingested = 0;
function legacy(
  userId: string,
  provider: string,
  provenance: typeof WATCH | typeof HEALTH_APP | typeof RING,
  sample: { type: string; value: string; start: number; end: number; externalId: string | null; metadata: Record<string, unknown>; rawObjectId?: string },
): LegacyRow {
  const start = new Date(sample.start);
  const end = new Date(sample.end);
  return {
    user_id: userId,
    type: sample.type,
    value: sample.value,
    start_date: start,
    end_date: end,
    ...provenance,
    external_id: sample.externalId,
    metadata: sample.metadata,
    provider,
    source_key: provenance.source ?? provider,
    ingested_at: new Date(T0 + 40 * DAY + ingested++ * 1000),
    raw_object_id: sample.rawObjectId ?? null,
    dedupe_key: recordIdentity({ externalId: sample.externalId, start, end, device: provenance.device, sourceName: provenance.source_name }),
  };
}

// Two weeks of stand hours: ten days at home, two abroad, two without a zone; HealthKit's
// uppercase UUIDs, one in lower case, one of digits only, and one hour from a renamed watch.
const standHours = Array.from({ length: 14 * 24 }, (_, h) => {
  const day = Math.floor(h / 24);
  const zone = day < 10 ? { timezone: "Europe/Berlin" } : day < 12 ? { timezone: "America/New_York" } : {};
  const id = h === 5 ? randomUUID() : h === 6 ? "12345678-1234-4234-8234-123456789012" : randomUUID().toUpperCase();
  const provenance = h === 7 ? { ...WATCH, source_name: "Apple Watch" } : WATCH;
  return legacy(user, "apple_health", provenance, { type: "apple_stand_hour", value: h % 3 === 0 ? "idle" : "stood", start: T0 + h * HOUR, end: T0 + (h + 1) * HOUR, externalId: id, metadata: zone });
});
// Headaches from the Health app (lowercase UUIDs, as Health Connect sends them, and metadata of
// their own) and from a ring (ids of its own, no metadata), overlapping on days 0, 2 and 4.
const headaches = Array.from({ length: 6 }, (_, d) =>
  legacy(user, "apple_health", HEALTH_APP, {
    type: "headache",
    value: "mild",
    start: T0 + d * DAY + 9 * HOUR,
    end: T0 + d * DAY + 12 * HOUR,
    externalId: randomUUID(),
    metadata: { timezone: "Europe/Berlin", HKMetadataKeySymptomSeverity: 2 },
    rawObjectId: randomUUID(),
  }),
);
const ringHeadaches = [0, 2, 4].map((d) =>
  legacy(user, "oura", RING, { type: "headache", value: "moderate", start: T0 + d * DAY + 10 * HOUR, end: T0 + d * DAY + 11 * HOUR, externalId: `oura-${d}`, metadata: {} }),
);
// Menstrual flow without provider ids (identity by times, device and source name): a day each
// from local midnight in Berlin, one of `none`, one whose timezone is not text, one empty.
const flowMetadata = [{ timezone: "Europe/Berlin", HKMenstrualCycleStart: true }, { timezone: "Europe/Berlin" }, { timezone: 5 }, { timezone: "" }, { timezone: "Europe/Berlin" }];
const flows = flowMetadata.map((metadata, d) =>
  legacy(user, "apple_health", HEALTH_APP, {
    type: "menstrual_flow",
    value: d === 4 ? "none" : "heavy",
    start: T0 + (20 + d) * DAY - HOUR,
    end: T0 + (21 + d) * DAY - HOUR,
    externalId: null,
    metadata,
  }),
);
const othersSession = legacy(other, "apple_health", WATCH, {
  type: "mindful_session",
  value: "breathing",
  start: T0 + 21 * HOUR,
  end: T0 + 21 * HOUR + 300_000,
  externalId: randomUUID().toUpperCase(),
  metadata: { timezone: "Asia/Tokyo" },
});

type Sql = Awaited<ReturnType<typeof connectSql>>;
type StoredRow = LegacyRow & { id: string };

/** The move of category samples, alone (the other kinds have nothing to move here, but would count batches). */
const categoryMove = LEGACY_MOVES.find((move) => move.table === "category_samples_legacy")!;

let url: string;
let sql: Sql;
let db: Database;
/** The old table's rows after they were stored (ids from its sequence), ordered by start_date and id. */
let before: StoredRow[];
/** What every read answers: the old rows, less those deleted since, with those written since. */
let current: StoredRow[];
/** The menstrual cycles of the old rows (derived from the flow), as first computed after the upgrade. */
let cyclesBefore: unknown[];
/** A database upgraded by the migration's first text, from the same old rows. */
let firstText: { url: string; sql: Sql };

/** A new database before the upgrade, holding the old rows (the same ids in each). */
async function databaseWithOldRows() {
  const { url, sql, migrations, at } = await databaseBeforeMigration(MIGRATION);
  await sql.query(`INSERT INTO tenants (id, name) VALUES ($1, 'upgrade')`, [TENANT]);
  await sql.query(`INSERT INTO users (id, tenant_id, updated_at) VALUES ($1, $3, now()), ($2, $3, now())`, [user, other, TENANT]);
  // Stored in an order other than time, so ids are not in time order.
  for (const rows of [ringHeadaches, flows, standHours, [othersSession], headaches]) {
    await sql.query(
      `INSERT INTO category_samples (user_id, type, value, start_date, end_date, source_name, source_bundle_id, device_model, external_id,
         was_user_entered, metadata, provider, source, source_key, device, on_body, ingested_at, raw_object_id, dedupe_key)
       SELECT user_id, type, value, start_date, end_date, source_name, source_bundle_id, device_model, external_id, was_user_entered,
         metadata, provider, source, source_key, device, on_body, ingested_at, raw_object_id, dedupe_key
       FROM jsonb_to_recordset($1::jsonb) AS x(user_id uuid, type text, value text, start_date timestamptz, end_date timestamptz,
         source_name text, source_bundle_id text, device_model text, external_id text, was_user_entered boolean, metadata jsonb,
         provider text, source text, source_key text, device text, on_body boolean, ingested_at timestamptz, raw_object_id uuid, dedupe_key text)`,
      [JSON.stringify(rows)],
    );
  }
  const stored: StoredRow[] = (await sql.query(`SELECT * FROM category_samples ORDER BY start_date, id`)).rows;
  return { url, sql, migrations, at, stored };
}

beforeAll(async () => {
  const [online, first] = await Promise.all([databaseWithOldRows(), databaseWithOldRows()]);
  ({ url, sql } = online);
  before = online.stored;
  current = [...before];
  await applyMigrations(url);
  db = createDatabase(url, { max: 2 });
  await setSourceOrder(db, user, "headache", ["oura", "apple"]);

  expect(first.stored).toEqual(before);
  const migration = first.migrations[first.at]!;
  await applyMigrations(first.url, [{ name: migration.name, sql: FIRST_TEXT, checksum: FIRST_CHECKSUM }]);
  await applyMigrations(first.url);
  firstText = { url: first.url, sql: first.sql };
});

afterAll(async () => {
  await sql?.end();
  await firstText?.sql.end();
  await db?.$disconnect();
});

/** A row of the old table as GET /v1/users/{id}/category-samples answered it. */
const asListed = (row: StoredRow): CategorySampleDto => ({
  id: Number(row.id),
  type: row.type,
  value: row.value,
  start_date: row.start_date.toISOString(),
  end_date: row.end_date.toISOString(),
  source_name: row.source_name,
  source_bundle_id: row.source_bundle_id,
  device_model: row.device_model,
  external_id: row.external_id,
  was_user_entered: row.was_user_entered,
  metadata: row.metadata,
  provider: row.provider,
  source: row.source,
  device: row.device,
  ingested_at: row.ingested_at.toISOString(),
});

/** Every page of a list, `limit` at a time, through its cursors. */
async function allPages(userId: string, input: Omit<Parameters<typeof listCategorySamples>[2], "cursor" | "limit">, limit = 50, on = db) {
  const items: CategorySampleDto[] = [];
  let cursor: string | undefined;
  do {
    const page = await listCategorySamples(on, userId, { ...input, cursor, limit });
    items.push(...page.data);
    cursor = page.next_cursor ?? undefined;
  } while (cursor);
  return items;
}

/** The old rows of a user as records a parser gives, to send them again. */
const asRecords = (rows: LegacyRow[]): CategorySampleRecord[] =>
  rows.map((row) => ({
    type: row.type,
    value: row.value,
    start_date: row.start_date,
    end_date: row.end_date,
    source: row.source,
    device: row.device,
    on_body: row.on_body,
    source_name: row.source_name,
    source_bundle_id: row.source_bundle_id,
    device_model: row.device_model,
    external_id: row.external_id,
    was_user_entered: row.was_user_entered,
    metadata: row.metadata,
  }));

const byTimeAndId = (a: StoredRow, b: StoredRow) => a.start_date.getTime() - b.start_date.getTime() || Number(a.id) - Number(b.id);
const overlaps = (a: LegacyRow, b: LegacyRow) => a.start_date < b.end_date && b.start_date < a.end_date;

/** The menstrual cycles derived from the flow stored now (ids aside). */
async function cyclesOf(userId: string) {
  await db.$transaction((tx) => recomputeMenstrualCycles(tx, userId));
  return (await listMenstrualCycles(db, userId, { limit: 10 })).data.map(({ id: _id, ...rest }) => rest);
}

/**
 * Every read of category samples answers as `current` says: pages of both views (of one type,
 * of every type, in a window, through their cursors), coverage, and the cycles derived from the
 * flow. The headaches of two streams overlap on some days: the ring's rank first.
 */
async function expectEveryReadAsTheRows() {
  const rows = [...current].sort(byTimeAndId);
  const mine = rows.filter((row) => row.user_id === user);
  expect(await allPages(user, { view: "all" })).toEqual(mine.map(asListed));
  expect(await allPages(other, { view: "all" })).toEqual(rows.filter((row) => row.user_id === other).map(asListed));
  for (const type of ["apple_stand_hour", "headache", "menstrual_flow"]) {
    expect(await allPages(user, { view: "all", type }), type).toEqual(mine.filter((row) => row.type === type).map(asListed));
  }
  const start = new Date(T0 + 2 * DAY);
  const end = new Date(T0 + 11 * DAY);
  expect(await allPages(user, { view: "all", start: start.toISOString(), end: end.toISOString() }, 77)).toEqual(
    mine.filter((row) => row.start_date >= start && row.start_date < end).map(asListed),
  );

  const ringHeadache = (row: LegacyRow) => row.type === "headache" && row.provider === "oura";
  const appleHeadache = (row: LegacyRow) => row.type === "headache" && row.provider === "apple_health";
  const merged = mine
    .filter((row) => !(appleHeadache(row) && mine.some((ring) => ringHeadache(ring) && overlaps(ring, row))))
    .map((row) => ({
      ...asListed(row),
      outranked: ringHeadache(row) && mine.some((h) => appleHeadache(h) && overlaps(h, row)) ? [{ provider: "apple_health", source: "apple" }] : [],
    }));
  expect(await allPages(user, { view: "merged" }, 40)).toEqual(merged);
  expect(await allPages(user, { view: "merged", type: "headache" })).toEqual(merged.filter((row) => row.type === "headache"));
  expect(await allPages(user, { view: "merged", type: "apple_stand_hour" }, 30)).toEqual(merged.filter((row) => row.type === "apple_stand_hour"));

  const coverage = await getCoverage(db, user, { start: "2025-12-01T00:00:00Z", end: "2026-02-15T00:00:00Z" });
  const perDay = new Map<string, number>();
  for (const row of mine) {
    const key = `${row.start_date.toISOString().slice(0, 10)}|${row.provider}`;
    perDay.set(key, (perDay.get(key) ?? 0) + 1);
  }
  expect(coverage.data.map((d) => [`${d.date}|${d.provider}`, d.records.category_samples, d.total])).toEqual(
    [...perDay].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, n]) => [key, n, n]),
  );
  const oura = await getCoverage(db, user, { start: "2026-01-01T00:00:00Z", end: "2026-02-15T00:00:00Z", provider: "oura" });
  expect(oura.data.map((d) => d.records.category_samples)).toEqual(mine.filter(ringHeadache).map(() => 1));

  expect(await cyclesOf(user)).toEqual(cyclesBefore);
}

/** How many rows each table holds. */
async function counts(on: Sql = sql) {
  const { rows } = await on.query(
    `SELECT (SELECT count(*) FROM category_samples_legacy)::int AS legacy, (SELECT count(*) FROM category_samples)::int AS moved,
       (SELECT count(*) FROM category_sample_series)::int AS series`,
  );
  return rows[0] as { legacy: number; moved: number; series: number };
}

/** The stored samples with these ids, each with its series' fields (series ids aside). */
async function samplesInSeries(on: Sql, ids: readonly string[]) {
  const { rows } = await on.query(
    `SELECT s.id::text, s.start_date, s.end_date, s.ingested_at, s.identity, s.raw_object_id, s.external_uuid, s.value, s.external_id,
       s.timezone, s.metadata, r.user_id, r.type, r.provider, r.source, r.source_key, r.device, r.on_body, r.source_name,
       r.source_bundle_id, r.device_model, r.was_user_entered, r.timezone AS series_timezone
     FROM category_samples s JOIN category_sample_series r ON r.user_id = s.user_id AND r.id = s.series_id
     WHERE s.id = ANY($1::bigint[]) ORDER BY s.id`,
    [ids],
  );
  return rows;
}

/** Columns, indexes, constraints and the id sequence of the tables of category samples. */
async function shapeOf(on: Sql) {
  const tables = ["category_samples_legacy", "category_samples", "category_sample_series"];
  const { rows } = await on.query(
    `SELECT 'column' AS kind, table_name || '.' || column_name AS name,
       concat_ws(' ', ordinal_position, data_type, datetime_precision, is_nullable, column_default) AS definition
     FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ANY($1)
     UNION ALL
     SELECT 'index', indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' AND tablename = ANY($1)
     UNION ALL
     SELECT 'constraint', conrelid::regclass::text || '.' || conname, pg_get_constraintdef(oid) FROM pg_constraint
     WHERE conrelid::regclass::text = ANY($1) AND contype <> 'n'  -- columns' NOT NULL (named after the table that made them) are above
     UNION ALL
     SELECT 'sequence', 'category_samples.id', pg_get_serial_sequence('category_samples', 'id')
     ORDER BY 1, 2`,
    [tables],
  );
  return rows;
}

describe("the upgrade to category samples in series, moved while svc serves", () => {
  it("leaves the samples in the legacy table, and every read answers as from the old rows", async () => {
    expect(await counts()).toEqual({ legacy: before.length, moved: 0, series: 0 });
    cyclesBefore = await cyclesOf(user);
    // Berlin's local days 2026-01-25 to 27, and the UTC days of the flow without a text zone.
    expect(cyclesBefore[0]).toMatchObject({ start_date: "2026-01-25" });
    await expectEveryReadAsTheRows();
  });

  it("moves a series of a user a batch, and every read answers the same in between", async () => {
    // The user's first rows by id: the ring's headaches, then the flow.
    const run = await moveLegacyData(db, { maxBatches: 2, moves: [categoryMove] });
    expect(run).toEqual({ moved: { category_samples_legacy: ringHeadaches.length + flows.length }, done: false });
    expect(await counts()).toEqual({ legacy: before.length - 8, moved: 8, series: 2 });
    await expectEveryReadAsTheRows();
  });

  it("leaves every row where it was, in the legacy table or in series, when a batch fails", async () => {
    const failing = before.find((row) => row.external_id === standHours[100]!.external_id)!;
    await sql.query(`ALTER TABLE category_samples ADD CONSTRAINT fails_the_move CHECK (id <> ${Number(failing.id)}) NOT VALID`);
    try {
      await expect(moveLegacyData(db, { moves: [categoryMove] })).rejects.toThrow(/fails_the_move/);
    } finally {
      await sql.query(`ALTER TABLE category_samples DROP CONSTRAINT fails_the_move`);
    }
    expect(await counts()).toEqual({ legacy: before.length - 8, moved: 8, series: 2 });
    await expectEveryReadAsTheRows();
  });

  it("deletes samples not moved yet by the provider's ids", async () => {
    const gone = [standHours[30]!, headaches[1]!];
    const deleted = await db.$transaction((tx) =>
      applyProviderDeletions(tx, { userId: user, provider: "apple_health" }, [...gone.map((row) => row.external_id!), "no-such-id"]),
    );
    expect(deleted).toBe(2);
    current = current.filter((row) => !gone.some((g) => g.external_id === row.external_id));
    expect(await counts()).toMatchObject({ legacy: before.length - 8 - 2 });
    await expectEveryReadAsTheRows();
  });

  it("moves a user's samples before a write of the user: sent again, nothing changes; a new sample gets a larger id", async () => {
    const mine = current.filter((row) => row.user_id === user);
    for (const provider of ["apple_health", "oura"]) {
      const rows = mine.filter((row) => row.provider === provider);
      const summary = await db.$transaction((tx) => writeCategorySamples(tx, { userId: user, provider }, asRecords(rows)));
      expect(summary, provider).toMatchObject({ inserted: 0, updated: 0, unchanged: rows.length, rejected: 0 });
    }
    // Only the other user's session is left.
    expect(await counts()).toEqual({ legacy: 1, moved: current.length - 1, series: 5 });

    const session = legacy(user, "apple_health", WATCH, {
      type: "mindful_session",
      value: "breathing",
      start: T0 - DAY,
      end: T0 - DAY + 600_000,
      externalId: randomUUID().toUpperCase(),
      metadata: { timezone: "Europe/Berlin" },
    });
    const added = await db.$transaction((tx) => writeCategorySamples(tx, { userId: user, provider: "apple_health" }, asRecords([session])));
    expect(added).toMatchObject({ inserted: 1 });
    const [stored] = (await listCategorySamples(db, user, { view: "all", type: "mindful_session", limit: 1 })).data;
    expect(stored!.id).toBeGreaterThan(Math.max(...before.map((row) => Number(row.id))));
    current.push({ ...session, id: String(stored!.id), ingested_at: new Date(stored!.ingested_at) });
    await expectEveryReadAsTheRows();
  });

  it("moves the rest; then the legacy table is empty and the samples lie in a few series, a zone with a sample only where it is not its series'", async () => {
    expect(await moveLegacyData(db, { moves: [categoryMove] })).toEqual({ moved: { category_samples_legacy: 1 }, done: true });
    expect(await moveLegacyData(db, { moves: [categoryMove] })).toEqual({ moved: { category_samples_legacy: 0 }, done: true });
    const { rows: series } = await sql.query(`SELECT user_id, type, provider, source_name, timezone FROM category_sample_series ORDER BY id`);
    expect(series).toEqual(
      expect.arrayContaining([
        { user_id: user, type: "apple_stand_hour", provider: "apple_health", source_name: "Apple Watch von Anna", timezone: "Europe/Berlin" },
        { user_id: user, type: "apple_stand_hour", provider: "apple_health", source_name: "Apple Watch", timezone: "Europe/Berlin" },
        { user_id: user, type: "headache", provider: "apple_health", source_name: "Health", timezone: "Europe/Berlin" },
        { user_id: user, type: "headache", provider: "oura", source_name: null, timezone: null },
        { user_id: user, type: "menstrual_flow", provider: "apple_health", source_name: "Health", timezone: "Europe/Berlin" },
        { user_id: user, type: "mindful_session", provider: "apple_health", source_name: "Apple Watch von Anna", timezone: "Europe/Berlin" },
        { user_id: other, type: "mindful_session", provider: "apple_health", source_name: "Apple Watch von Anna", timezone: "Asia/Tokyo" },
      ]),
    );
    expect(series).toHaveLength(7);
    const { rows } = await sql.query(
      `SELECT count(*)::int AS samples, count(*) FILTER (WHERE timezone IS NOT NULL)::int AS own_zones,
         count(external_uuid)::int AS uuids, count(*) FILTER (WHERE metadata IS NULL)::int AS without_metadata,
         (SELECT count(*)::int FROM category_samples_legacy) AS legacy
       FROM category_samples`,
    );
    // Zones of their own: 48 hours abroad, 48 without one, two flows whose metadata held no text zone.
    // As uuid: the stand hours but the lowercase one (and one deleted), the other user's session and the new one (the headaches' stay text).
    // Metadata of their own: the headaches' (one deleted) and three flows'.
    expect(rows[0]).toEqual({ samples: current.length, own_zones: 98, uuids: 14 * 24 - 1 - 1 + 1 + 1, without_metadata: current.length - 5 - 3, legacy: 0 });
    await expectEveryReadAsTheRows();
  });

  it("stores each sample as the migration's first text did: same id, series fields, zones, identity, provider id and metadata", async () => {
    const ids = current.filter((row) => before.some((b) => b.id === row.id)).map((row) => row.id);
    expect(await samplesInSeries(sql, ids)).toEqual(await samplesInSeries(firstText.sql, ids));
  });

  it("finds every sample again by its identity; the cycles are those of the same flow written anew", async () => {
    const mine = current.filter((row) => row.user_id === user);
    for (const provider of ["apple_health", "oura"]) {
      const rows = mine.filter((row) => row.provider === provider);
      const summary = await db.$transaction((tx) => writeCategorySamples(tx, { userId: user, provider }, asRecords(rows)));
      expect(summary, provider).toMatchObject({ inserted: 0, updated: 0, unchanged: rows.length, rejected: 0 });
    }
    await expectEveryReadAsTheRows();

    // The same flow written anew for a fresh user: the same samples (but for ids and times of
    // storing) and the same cycles as the upgraded ones.
    const fresh = (await createUser(db, TENANT, "fresh")).id;
    const flowRows = mine.filter((row) => row.type === "menstrual_flow");
    await db.$transaction((tx) => writeCategorySamples(tx, { userId: fresh, provider: "apple_health" }, asRecords(flowRows)));
    const withoutIds = (list: CategorySampleDto[]) => list.map(({ id: _id, ingested_at: _at, ...rest }) => rest);
    expect(withoutIds(await allPages(fresh, { view: "all" }))).toEqual(withoutIds(flowRows.map(asListed)));
    expect(await cyclesOf(fresh)).toEqual(cyclesBefore);
  });

  it("changes a sample sent again in place", async () => {
    const stood = current.find((row) => row.type === "apple_stand_hour" && row.value === "stood")!;
    const [record] = asRecords([stood]);
    const changed = await db.$transaction((tx) =>
      writeCategorySamples(tx, { userId: user, provider: "apple_health" }, [{ ...record!, value: "idle", metadata: { timezone: "Asia/Tokyo" } }]),
    );
    expect(changed).toMatchObject({ inserted: 0, updated: 1 });
    const page = await listCategorySamples(db, user, { view: "all", type: "apple_stand_hour", start: stood.start_date.toISOString(), limit: 1 });
    expect(page.data[0]).toMatchObject({ id: Number(stood.id), value: "idle", metadata: { timezone: "Asia/Tokyo" }, external_id: stood.external_id });
  });

  it("deletes by the provider's ids of any type, and a user's samples with the user", async () => {
    const gone = [standHours[31]!, headaches[2]!];
    const deleted = await db.$transaction((tx) =>
      applyProviderDeletions(tx, { userId: user, provider: "apple_health" }, [...gone.map((row) => row.external_id!), "no-such-id"]),
    );
    expect(deleted).toBe(2);
    const ids = (await allPages(user, { view: "all" })).map((row) => row.external_id);
    for (const row of gone) expect(ids).not.toContain(row.external_id);
    // The ring's id is its own provider's: an Apple Health deletion leaves it.
    expect(await db.$transaction((tx) => applyProviderDeletions(tx, { userId: user, provider: "apple_health" }, ["oura-0"]))).toBe(0);

    await sql.query(`DELETE FROM users WHERE id = $1`, [user]);
    const { rows } = await sql.query(`SELECT user_id, count(*)::int AS n FROM category_samples GROUP BY 1 UNION ALL SELECT user_id, -count(*)::int FROM category_sample_series GROUP BY 1 ORDER BY 1, 2`);
    expect(rows.filter((row) => row.user_id === user)).toEqual([]);
    expect(rows.filter((row) => row.user_id === other).map((row) => row.n)).toEqual([-1, 1]);
  });
});

describe("a database upgraded by the migration's first text", () => {
  it("is accepted, and gets an empty legacy table shaped as the renamed one, beside the same tables", async () => {
    expect(createHash("sha256").update(FIRST_TEXT).digest("hex")).toBe(FIRST_CHECKSUM);
    const { rows } = await firstText.sql.query(`SELECT checksum FROM _prisma_migrations WHERE migration_name LIKE $1`, [`%${MIGRATION}`]);
    expect(rows).toEqual([{ checksum: FIRST_CHECKSUM }]);
    expect(await applyMigrations(firstText.url)).toEqual([]);
    expect(await counts(firstText.sql)).toEqual({ legacy: 0, moved: before.length, series: 6 });
    expect(await shapeOf(firstText.sql)).toEqual(await shapeOf(sql));
  });

  it("answers every page as the old rows", async () => {
    const upgraded = createDatabase(firstText.url, { max: 1 });
    try {
      expect(await allPages(user, { view: "all" }, 50, upgraded)).toEqual(before.filter((row) => row.user_id === user).map(asListed));
    } finally {
      await upgraded.$disconnect();
    }
  });
});
