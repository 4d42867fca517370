import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, createDatabase, type Database } from "@svc/db";
import {
  applyProviderDeletions,
  createUser,
  getCoverage,
  listCategorySamples,
  listMenstrualCycles,
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
// old writer stored them, is upgraded; every read answers as it did from the old rows, ids
// included, and the samples are found again by their identity when sent again.
const MIGRATION = "category_sample_series";
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

let url: string;
let sql: Awaited<ReturnType<typeof connectSql>>;
let db: Database;
/** The old table's rows after they were stored (ids from its sequence), ordered by start_date and id. */
let before: Array<LegacyRow & { id: string }>;

beforeAll(async () => {
  ({ url, sql } = await databaseBeforeMigration(MIGRATION));
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
  before = (await sql.query(`SELECT * FROM category_samples ORDER BY start_date, id`)).rows;
  await applyMigrations(url);
  db = createDatabase(url, { max: 2 });
});

afterAll(async () => {
  await sql?.end();
  await db?.$disconnect();
});

/** A row of the old table as GET /v1/users/{id}/category-samples answered it. */
const asListed = (row: LegacyRow & { id: string }): CategorySampleDto => ({
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
async function allPages(userId: string, input: Omit<Parameters<typeof listCategorySamples>[2], "cursor" | "limit">, limit = 50) {
  const items: CategorySampleDto[] = [];
  let cursor: string | undefined;
  do {
    const page = await listCategorySamples(db, userId, { ...input, cursor, limit });
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

describe("the upgrade to category samples in series", () => {
  it("groups the samples into a few series and keeps a zone with a sample only where it is not its series'", async () => {
    const { rows: series } = await sql.query(`SELECT user_id, type, provider, source_name, timezone FROM category_sample_series ORDER BY id`);
    expect(series).toEqual(
      expect.arrayContaining([
        { user_id: user, type: "apple_stand_hour", provider: "apple_health", source_name: "Apple Watch von Anna", timezone: "Europe/Berlin" },
        { user_id: user, type: "apple_stand_hour", provider: "apple_health", source_name: "Apple Watch", timezone: "Europe/Berlin" },
        { user_id: user, type: "headache", provider: "apple_health", source_name: "Health", timezone: "Europe/Berlin" },
        { user_id: user, type: "headache", provider: "oura", source_name: null, timezone: null },
        { user_id: user, type: "menstrual_flow", provider: "apple_health", source_name: "Health", timezone: "Europe/Berlin" },
        { user_id: other, type: "mindful_session", provider: "apple_health", source_name: "Apple Watch von Anna", timezone: "Asia/Tokyo" },
      ]),
    );
    expect(series).toHaveLength(6);
    const { rows } = await sql.query(
      `SELECT count(*)::int AS samples, count(*) FILTER (WHERE timezone IS NOT NULL)::int AS own_zones,
         count(external_uuid)::int AS uuids, count(*) FILTER (WHERE metadata IS NULL)::int AS without_metadata
       FROM category_samples`,
    );
    // Zones of their own: 48 hours abroad, 48 without one, two flows whose metadata held no text zone.
    // As uuid: the stand hours but the lowercase one, and the other user's session (the headaches' stay text).
    // Metadata of their own: the headaches' and three flows'.
    expect(rows[0]).toEqual({ samples: before.length, own_zones: 98, uuids: 14 * 24 - 1 + 1, without_metadata: before.length - 6 - 3 });
  });

  it("answers every page as the old rows, ids included, in both views of one stream and with a type or a window", async () => {
    const mine = before.filter((row) => row.user_id === user);
    expect(await allPages(user, { view: "all" })).toEqual(mine.map(asListed));
    expect(await allPages(other, { view: "all" })).toEqual([asListed(before.find((row) => row.user_id === other)!)]);
    for (const type of ["apple_stand_hour", "headache", "menstrual_flow"]) {
      expect(await allPages(user, { view: "all", type }), type).toEqual(mine.filter((row) => row.type === type).map(asListed));
    }
    const start = new Date(T0 + 2 * DAY);
    const end = new Date(T0 + 11 * DAY);
    expect(await allPages(user, { view: "all", start: start.toISOString(), end: end.toISOString() }, 77)).toEqual(
      mine.filter((row) => row.start_date >= start && row.start_date < end).map(asListed),
    );
    // One stream per type but the headaches' two: the merged view keeps every other sample.
    expect(await allPages(user, { view: "merged", type: "apple_stand_hour" })).toEqual(
      mine.filter((row) => row.type === "apple_stand_hour").map((row) => ({ ...asListed(row), outranked: [] })),
    );
  });

  it("merges overlapping samples of two streams by the source order, as the old rows would", async () => {
    await setSourceOrder(db, user, "headache", ["oura", "apple"]);
    const overlaps = (a: LegacyRow, b: LegacyRow) => a.start_date < b.end_date && b.start_date < a.end_date;
    const mine = before.filter((row) => row.user_id === user);
    const expected = mine
      .filter((row) => !(row.provider === "apple_health" && row.type === "headache" && ringHeadaches.some((ring) => overlaps(ring, row))))
      .map((row) => ({
        ...asListed(row),
        outranked: row.provider === "oura" && headaches.some((h) => overlaps(h, row)) ? [{ provider: "apple_health", source: "apple" }] : [],
      }));
    expect(await allPages(user, { view: "merged" }, 40)).toEqual(expected);
    expect(await allPages(user, { view: "merged", type: "headache" })).toEqual(expected.filter((row) => row.type === "headache"));
  });

  it("counts coverage per provider and day as the old rows", async () => {
    const coverage = await getCoverage(db, user, { start: "2026-01-01T00:00:00Z", end: "2026-02-15T00:00:00Z" });
    const expected = new Map<string, number>();
    for (const row of before.filter((r) => r.user_id === user)) {
      const key = `${row.start_date.toISOString().slice(0, 10)}|${row.provider}`;
      expected.set(key, (expected.get(key) ?? 0) + 1);
    }
    expect(coverage.data.map((d) => [`${d.date}|${d.provider}`, d.records.category_samples, d.total])).toEqual(
      [...expected].sort(([a], [b]) => (a < b ? -1 : 1)).map(([key, n]) => [key, n, n]),
    );
    const oura = await getCoverage(db, user, { start: "2026-01-01T00:00:00Z", end: "2026-02-15T00:00:00Z", provider: "oura" });
    expect(oura.data.map((d) => d.records.category_samples)).toEqual([1, 1, 1]);
  });

  it("finds every sample again by its identity: sent again, nothing changes; the cycles are those of the same flow written anew", async () => {
    const mine = before.filter((row) => row.user_id === user);
    for (const provider of ["apple_health", "oura"]) {
      const rows = mine.filter((row) => row.provider === provider);
      const summary = await db.$transaction((tx) => writeCategorySamples(tx, { userId: user, provider }, asRecords(rows)));
      expect(summary, provider).toMatchObject({ inserted: 0, updated: 0, unchanged: rows.length, rejected: 0 });
    }
    expect(await allPages(user, { view: "all" })).toEqual(mine.map(asListed));

    // The same flow written anew for a fresh user: the same samples (but for ids and times of
    // storing) and the same cycles as the upgraded ones.
    const fresh = (await createUser(db, TENANT, "fresh")).id;
    const flowRows = mine.filter((row) => row.type === "menstrual_flow");
    await db.$transaction((tx) => writeCategorySamples(tx, { userId: fresh, provider: "apple_health" }, asRecords(flowRows)));
    const withoutIds = (list: CategorySampleDto[]) => list.map(({ id: _id, ingested_at: _at, ...rest }) => rest);
    expect(withoutIds(await allPages(fresh, { view: "all" }))).toEqual(withoutIds(flowRows.map(asListed)));
    await db.$transaction((tx) => recomputeMenstrualCycles(tx, user));
    const cycles = async (userId: string) => (await listMenstrualCycles(db, userId, { limit: 10 })).data.map(({ id: _id, ...rest }) => rest);
    expect(await cycles(user)).toEqual(await cycles(fresh));
    // Berlin's local days 2026-01-25 to 27, and the UTC days of the flow without a text zone.
    expect((await cycles(user))[0]).toMatchObject({ start_date: "2026-01-25" });
  });

  it("changes a sample sent again in place, and gives new samples larger ids", async () => {
    const stood = before.find((row) => row.type === "apple_stand_hour" && row.value === "stood")!;
    const [record] = asRecords([stood]);
    const changed = await db.$transaction((tx) =>
      writeCategorySamples(tx, { userId: user, provider: "apple_health" }, [{ ...record!, value: "idle", metadata: { timezone: "Asia/Tokyo" } }]),
    );
    expect(changed).toMatchObject({ inserted: 0, updated: 1 });
    const page = await listCategorySamples(db, user, { view: "all", type: "apple_stand_hour", start: stood.start_date.toISOString(), limit: 1 });
    expect(page.data[0]).toMatchObject({ id: Number(stood.id), value: "idle", metadata: { timezone: "Asia/Tokyo" }, external_id: stood.external_id });
    const added = await db.$transaction((tx) =>
      writeCategorySamples(tx, { userId: user, provider: "apple_health" }, [{ ...record!, external_id: randomUUID().toUpperCase(), start_date: new Date(T0 - DAY), end_date: new Date(T0 - DAY + HOUR) }]),
    );
    expect(added).toMatchObject({ inserted: 1 });
    const [first] = (await listCategorySamples(db, user, { view: "all", limit: 1 })).data;
    expect(first!.id).toBeGreaterThan(Math.max(...before.map((row) => Number(row.id))));
  });

  it("deletes by the provider's ids of any type, and a user's samples with the user", async () => {
    const gone = [standHours[30]!, headaches[1]!];
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
