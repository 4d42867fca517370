import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, createDatabase, type Database } from "@svc/db";
import { listSamples, moveLegacySampleBatch, readFhirObservation, searchFhirObservations, searchObservations, writeNutritionLogs, writeQuantitySamples } from "@svc/core";
import type { connectSql } from "@svc/testing";
import { databaseBeforeMigration } from "../helpers/upgrade.ts";

// The FHIR search reads one page of the samples of every type together, a window at a time (a
// type of one ranked stream as in the view all, unless it meets a sample of a stream not ranked),
// and stops once the page is known: its pages must list exactly the samples listSamples lists,
// type by type, merged by time, also for samples not moved yet since the upgrade that grouped
// them. Records beside samples are read a few at first, a page of them when the page needs more.
let sql: Awaited<ReturnType<typeof connectSql>>;
let db: Database;
const user = "7a2d3c4e-0000-4000-8000-000000000001";
const settings = { codeSystemBase: "https://svc.example/fhir/CodeSystem", searchUrl: `https://svc.example/v1/users/${user}/fhir/Observation` };
const VIEWS = ["all", "merged"] as const;
const TYPES = ["heart_rate", "step_count", "body_mass", "respiratory_rate"];

beforeAll(async () => {
  let url: string;
  ({ url, sql } = await databaseBeforeMigration("quantity_sample_chunks"));
  await sql.query(`INSERT INTO tenants (id, name) VALUES ('7a2d3c4e-0000-4000-8000-0000000000aa', 'fhir')`);
  await sql.query(`INSERT INTO users (id, tenant_id, updated_at) VALUES ($1, '7a2d3c4e-0000-4000-8000-0000000000aa', now())`, [user]);
  // As the old writer stored them: heart rate of a phone and of a strap (overlapping, for the
  // merged view), steps, a daily weight over two months and blood pressure pairs.
  const insert = (type: string, unit: string, provider: string, onBody: boolean, count: number, step: string, from = "2026-01-01T00:00:00Z") =>
    sql.query(
      `INSERT INTO quantity_samples (user_id, type, value, unit, start_date, end_date, metadata, provider, source, source_key, device, on_body, dedupe_key)
       SELECT $1, $2, 50 + g % 40, $3, t, t, '{}', $4, $4, $4, 'device', $5, 'at:' || $2 || g
       FROM generate_series(0, $6::int - 1) g, LATERAL (SELECT $8::timestamptz + g * $7::interval AS t) x`,
      [user, type, unit, provider, onBody, count, step, from],
    );
  await insert("heart_rate", "count/min", "apple_health", false, 864, "5 minutes");
  await insert("heart_rate", "count/min", "polar", true, 412, "7 minutes");
  await insert("step_count", "count", "apple_health", false, 144, "30 minutes");
  await insert("body_mass", "kg", "withings", false, 60, "1 day", "2025-12-31T06:00:00Z");
  await insert("blood_pressure_systolic", "mmHg", "withings", false, 40, "12 hours", "2025-12-31T07:00:00Z");
  await insert("blood_pressure_diastolic", "mmHg", "withings", false, 40, "12 hours", "2025-12-31T07:00:00Z");
  // Respiratory rate of a ring, and of a strap whose stream is not ranked (its stream row is missing).
  await insert("respiratory_rate", "count/min", "oura", true, 300, "17 minutes");
  await insert("respiratory_rate", "count/min", "whoop", true, 90, "53 minutes", "2026-01-01T00:05:00Z");
  await sql.query(
    `INSERT INTO quantity_sample_streams (user_id, type, provider, source_key, on_body, max_duration_seconds, first_start, last_start)
     SELECT user_id, type, provider, source_key, on_body, 0, min(start_date), max(start_date) FROM quantity_samples
     WHERE provider <> 'whoop' GROUP BY 1, 2, 3, 4, 5`,
  );
  await applyMigrations(url);
  db = createDatabase(url, { max: 2 });
  // Some samples moved into chunks, the rest still in the legacy table, and new ones written since.
  await moveLegacySampleBatch(db, 300);
  await db.$transaction((tx) =>
    writeQuantitySamples(tx, { userId: user, provider: "garmin" }, Array.from({ length: 144 }, (_, i) => ({
      type: "heart_rate", value: 60 + (i % 7), start_date: new Date(Date.parse("2026-01-02T00:00:00Z") + i * 600_000), source: "garmin", device: "Venu", on_body: true,
    }))),
  );
  // Meals every 20 minutes for two days: more than a few beside the samples of a page.
  await writeNutritionLogs(db, { userId: user, provider: "cronometer" }, Array.from({ length: 144 }, (_, i) => ({
    start_date: new Date(Date.parse("2026-01-01T00:00:00Z") + i * 1_200_000), meal_type: "snack", energy_kcal: 100 + i, source: "cronometer",
  })));
});

afterAll(async () => {
  await sql?.end();
  await db?.$disconnect();
});

/** Every sample of the types as listSamples lists them, merged by time then id, as Observation ids and times. */
async function samplesByTime(view: (typeof VIEWS)[number], start?: string): Promise<string[]> {
  const rows: Array<{ id: number; start_date: string }> = [];
  for (const type of TYPES) {
    let cursor: string | undefined;
    do {
      const page = await listSamples(db, user, { type, view, limit: 1000, start, cursor });
      rows.push(...page.data);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
  }
  return rows.sort((a, b) => a.start_date.localeCompare(b.start_date) || a.id - b.id).map((s) => `qs-${s.id} ${s.start_date}`);
}

/**
 * Every Observation of the search, page by page through the next links. Every page but the
 * last is full: each source here holds more than a page up to its horizon (no record a page
 * leaves out), so a page cut short would mean a read stopped before the page was known.
 */
async function everyObservation(view: (typeof VIEWS)[number], limit: number, start?: string): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | undefined;
  for (let pages = 0; pages < 2000; pages++) {
    const bundle = await searchObservations(db, user, { view, limit, start, cursor }, settings);
    expect(bundle.entry?.length ?? 0).toBeLessThanOrEqual(limit);
    ids.push(...(bundle.entry ?? []).map((e) => `${e.resource?.id} ${e.resource?.effectiveDateTime ?? ""}`));
    const next = bundle.link?.find((l) => l.relation === "next")?.url;
    if (!next) return ids;
    expect(bundle.entry).toHaveLength(limit);
    cursor = new URL(next).searchParams.get("cursor") ?? undefined;
  }
  throw new Error("too many pages");
}

describe("FHIR pages of samples of every type", () => {
  it("still holds samples in the legacy table and in chunks", async () => {
    const { rows } = await sql.query(
      `SELECT (SELECT count(*) FROM quantity_samples_legacy)::int AS legacy, (SELECT sum(sample_count) FROM quantity_sample_chunks)::int AS chunked`,
    );
    expect(rows[0].legacy).toBeGreaterThan(0);
    expect(rows[0].chunked).toBeGreaterThan(0);
    // The strap's respiratory rate is of a stream not ranked: the search reads that type merged after all.
    const streams = await sql.query(`SELECT provider FROM quantity_sample_streams WHERE type = 'respiratory_rate'`);
    expect(streams.rows.map((row) => row.provider)).toEqual(["oura"]);
  });

  for (const view of VIEWS) {
    it(`lists every sample listSamples lists, in time order, in pages of any size (view ${view})`, async () => {
      const expected = await samplesByTime(view);
      const whole = await everyObservation(view, 1000);
      expect(whole.filter((id) => id.startsWith("qs-"))).toEqual(expected);
      expect(whole.filter((id) => id.startsWith("bp-"))).toHaveLength(40);
      expect(whole.filter((id) => id.startsWith("nutrition-"))).toHaveLength(144);
      expect(await everyObservation(view, 9)).toEqual(whole);
      expect(await everyObservation(view, 100)).toEqual(whole);
      const start = "2026-01-02T10:03:00.000Z";
      expect((await everyObservation(view, 37, start)).filter((id) => id.startsWith("qs-"))).toEqual(await samplesByTime(view, start));
    });
  }
});

describe("FHIR pages of blood pressure panels", () => {
  // A scale and the phone's copy of its readings at the same instants (the merged view keeps the
  // scale's), a cuff two minutes later on some days: every panel is listed once, in pages of any size.
  const other = "7a2d3c4e-0000-4000-8000-000000000002";
  const panels = async (view: (typeof VIEWS)[number], limit: number) => {
    const ids: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 500; pages++) {
      const bundle = await searchObservations(db, other, { code: "http://loinc.org|85354-9", view, limit, cursor }, settings);
      ids.push(...(bundle.entry ?? []).map((e) => `${e.resource?.id} ${e.resource?.effectiveDateTime}`));
      const next = bundle.link?.find((l) => l.relation === "next")?.url;
      if (!next) return ids;
      cursor = new URL(next).searchParams.get("cursor") ?? undefined;
    }
    throw new Error("too many pages");
  };

  beforeAll(async () => {
    await sql.query(`INSERT INTO users (id, tenant_id, updated_at) VALUES ($1, '7a2d3c4e-0000-4000-8000-0000000000aa', now())`, [other]);
    const readings = (source: string, device: string, days: number, offsetMs = 0) =>
      Array.from({ length: days * 2 }, (_, i) => new Date(Date.parse("2026-03-01T07:00:00Z") + i * 43_200_000 + offsetMs)).flatMap((start_date, i) => [
        { type: "blood_pressure_systolic", value: 110 + (i % 20), start_date, source, device },
        { type: "blood_pressure_diastolic", value: 70 + (i % 10), start_date, source, device },
      ]);
    const write = (provider: string, records: ReturnType<typeof readings>) => db.$transaction((tx) => writeQuantitySamples(tx, { userId: other, provider }, records));
    await write("withings", readings("withings", "BPM Connect", 30));
    await write("apple_health", readings("withings", "BPM Connect", 30));
    await write("omron", readings("omron", "Arm cuff", 10, 120_000));
  });

  for (const view of VIEWS) {
    it(`lists every panel once, in pages of any size (view ${view})`, async () => {
      const whole = await panels(view, 1000);
      // Merged: the scale's 60 panels (the phone's copies and the cuff's close readings left out); all: each provider's.
      expect(whole).toHaveLength(view === "merged" ? 60 : 140);
      expect(new Set(whole).size).toBe(whole.length);
      for (const limit of [1, 9, 100]) expect(await panels(view, limit)).toEqual(whole);
    });
  }
});

describe("pages whose merged view keeps few of the samples each window reads", () => {
  // Hourly steps of a watch ranked first and quarter-hour steps of a phone, all overlapping one:
  // a window keeps one sample in five, so a page takes many windows, each one longer.
  const third = "7a2d3c4e-0000-4000-8000-000000000003";
  beforeAll(async () => {
    await sql.query(`INSERT INTO users (id, tenant_id, updated_at) VALUES ($1, '7a2d3c4e-0000-4000-8000-0000000000aa', now())`, [third]);
    const hour = (i: number) => Date.parse("2026-05-01T00:00:00Z") + i * 3_600_000;
    await db.$transaction((tx) => writeQuantitySamples(tx, { userId: third, provider: "garmin" }, Array.from({ length: 240 }, (_, i) => ({
      type: "step_count", value: 500, start_date: new Date(hour(i) + 300_000), end_date: new Date(hour(i) + 3_000_000), source: "garmin", on_body: true,
    }))));
    await db.$transaction((tx) => writeQuantitySamples(tx, { userId: third, provider: "apple_health" }, Array.from({ length: 960 }, (_, i) => ({
      type: "step_count", value: 100, start_date: new Date(hour(0) + i * 900_000), end_date: new Date(hour(0) + (i + 1) * 900_000), source: "apple", on_body: false,
    }))));
  });

  it("pages through the samples list and the FHIR search alike", async () => {
    const listed: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listSamples(db, third, { type: "step_count", view: "merged", limit: 100, cursor });
      listed.push(...page.data.map((s) => `qs-${s.id}`));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(listed).toHaveLength(240);
    const searched: string[] = [];
    let next: string | undefined;
    do {
      const bundle = await searchObservations(db, third, { type: "step_count", view: "merged", limit: 100, cursor: next }, settings);
      searched.push(...(bundle.entry ?? []).map((e) => e.resource!.id!));
      const url = bundle.link?.find((l) => l.relation === "next")?.url;
      next = url ? (new URL(url).searchParams.get("cursor") ?? undefined) : undefined;
    } while (next);
    expect(searched).toEqual(listed);
  });
});

describe("GET /v1/fhir/Observation/{id} of samples wherever they are stored", () => {
  // Samples still in the legacy table, moved into chunks (keeping their old ids), and written
  // since into chunks; panels of legacy readings; nutrition logs. A read finds each by its id alone.
  const tenant = { kind: "tenant" as const, tenantId: "7a2d3c4e-0000-4000-8000-0000000000aa", keyId: "k" };
  const base = { baseUrl: "https://svc.example/v1/fhir", codeSystemBase: settings.codeSystemBase };

  for (const view of VIEWS) {
    it(`reads the very Observation the search lists (view ${view})`, async () => {
      const listed: Array<{ id?: string; issued?: string; meta?: object }> = [];
      let cursor: string | undefined;
      do {
        const bundle = await searchObservations(db, user, { view, limit: 1000, cursor }, settings);
        listed.push(...(bundle.entry ?? []).map((e) => e.resource!));
        cursor = new URL(bundle.link?.find((l) => l.relation === "next")?.url ?? "https://x/").searchParams.get("cursor") ?? undefined;
      } while (cursor);
      const { rows } = await sql.query(
        `SELECT (SELECT array_agg(id::text) FROM quantity_samples_legacy) AS legacy,
           (SELECT array_agg(u.id::text) FROM quantity_sample_chunks c, unnest(c.legacy_ids) u(id) WHERE u.id IS NOT NULL) AS moved`,
      );
      const where = (ids: string[]) => listed.find((o) => ids.includes(o.id!.slice(3)) && o.id!.startsWith("qs-"))!.id;
      const [stillLegacy, moved] = [where(rows[0].legacy), where(rows[0].moved)];
      const sampled = listed.filter((o, index) => index % 23 === 0 || o.id!.startsWith("bp-") || o.id === stillLegacy || o.id === moved);
      expect(sampled.filter((o) => o.id === stillLegacy || o.id === moved)).toHaveLength(2);
      for (const observation of sampled) {
        const read = await readFhirObservation(db, tenant, observation.id!, base);
        expect(read).toEqual({ ...observation, meta: { ...observation.meta, lastUpdated: observation.issued } });
      }
      await expect(readFhirObservation(db, { ...tenant, tenantId: "7a2d3c4e-0000-4000-8000-0000000000bb" }, sampled[0]!.id!, base)).rejects.toThrow("No such Observation");
    });
  }
});

describe("GET /v1/fhir/Observation?_sort=-date over dense and sparse samples", () => {
  // Newest-first pages read the forward walk back in time, window by window: every page size
  // must list exactly the forward order reversed, bounded by date or not.
  const tenant = { kind: "tenant" as const, tenantId: "7a2d3c4e-0000-4000-8000-0000000000aa", keyId: "k" };
  const base = { baseUrl: "https://svc.example/v1/fhir", codeSystemBase: settings.codeSystemBase };

  async function newestFirst(view: (typeof VIEWS)[number], count: number, extra: Record<string, string | string[]> = {}): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 2000; pages++) {
      const query = { patient: user, _sort: "-date", _count: String(count), view, ...extra, ...(cursor && { cursor }) };
      const bundle = await searchFhirObservations(db, tenant, query, { strict: true }, base);
      ids.push(...(bundle.entry ?? []).map((e) => e.resource!.id!));
      const next = bundle.link?.find((l) => l.relation === "next")?.url;
      if (!next) return ids;
      expect(bundle.entry).toHaveLength(count);
      cursor = new URL(next).searchParams.get("cursor") ?? undefined;
    }
    throw new Error("too many pages");
  }

  /** Every Observation id of a search of `who`, page by page through the cursors of its next links. */
  async function everyPage(who: string, query: Record<string, string | string[]>): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | undefined;
    for (let pages = 0; pages < 2000; pages++) {
      const bundle = await searchFhirObservations(db, tenant, { patient: who, ...query, ...(cursor && { cursor }) }, { strict: true }, base);
      ids.push(...(bundle.entry ?? []).map((e) => e.resource!.id!));
      const next = bundle.link?.find((l) => l.relation === "next")?.url;
      if (!next) return ids;
      cursor = new URL(next).searchParams.get("cursor") ?? undefined;
    }
    throw new Error("too many pages");
  }

  // The walk back starts just after the latest entry the search lists (its kinds' latest records,
  // its sample types' streams), here months before now: the same pages as a walk from now.
  it("starts from the latest entry the filter lets through, past or future: the forward order reversed", async () => {
    const searches: Array<Record<string, string | string[]>> = [
      {},
      { code: "http://loinc.org|29463-7" }, // weight: daily until the end of February, later than the rest
      { code: "http://loinc.org|8867-4" }, // heart rate: the first days of January only
      { category: "vital-signs" },
      { code: "http://loinc.org|85354-9" }, // blood pressure panels
      { code: `${settings.codeSystemBase}/record-type|nutrition_log` },
      { date: "lt2026-01-02T12:00:00Z" },
      { date: ["ge2026-01-01T06:00:00Z", "le2026-01-01T07:00:00Z"] },
      { code: "http://loinc.org|8867-4", date: "ge2026-02-01" }, // nothing
    ];
    for (const view of VIEWS) {
      for (const search of searches) {
        const reversed = (await everyPage(user, { ...search, view, _count: "1000" })).reverse();
        expect(await everyPage(user, { ...search, view, _sort: "-date", _count: "1000" }), JSON.stringify({ view, search })).toEqual(reversed);
        const first = await searchFhirObservations(db, tenant, { patient: user, ...search, view, _sort: "-date", _count: "7" }, { strict: true }, base);
        expect(first.entry?.map((e) => e.resource!.id) ?? [], JSON.stringify({ view, search, count: 7 })).toEqual(reversed.slice(0, 7));
      }
    }
  }, 120_000);

  it("lists records dated in the future first, and nothing for a user without records", async () => {
    const [future, empty] = ["7a2d3c4e-0000-4000-8000-0000000000f1", "7a2d3c4e-0000-4000-8000-0000000000f2"];
    for (const id of [future, empty]) await sql.query(`INSERT INTO users (id, tenant_id, updated_at) VALUES ($1, $2, now())`, [id, tenant.tenantId]);
    const meal = (start: string, kcal: number) => ({ start_date: new Date(start), meal_type: "snack" as const, energy_kcal: kcal, source: "cronometer" });
    await writeNutritionLogs(db, { userId: future, provider: "cronometer" }, [meal("2025-03-01T12:00:00Z", 1), meal("2099-01-01T12:00:00Z", 2), meal("2026-01-05T08:00:00Z", 3)]);
    await db.$transaction((tx) =>
      writeQuantitySamples(tx, { userId: future, provider: "withings" }, [{ type: "body_mass", value: 70, start_date: new Date("2098-06-01T06:00:00Z"), source: "withings" }]),
    );
    const forward = await everyPage(future, { _count: "10" });
    expect(forward).toHaveLength(4);
    expect(await everyPage(future, { _sort: "-date", _count: "1" })).toEqual([...forward].reverse());
    expect(await everyPage(future, { _sort: "-date", _count: "1", code: "http://loinc.org|29463-7" })).toEqual([forward[2]]);
    expect(await everyPage(empty, { _sort: "-date" })).toEqual([]);
  });

  for (const view of VIEWS) {
    it(`lists the forward order reversed, in pages of any size (view ${view})`, async () => {
      const forward = (await everyObservation(view, 1000)).map((line) => line.split(" ")[0]!);
      expect(await newestFirst(view, 1000)).toEqual([...forward].reverse());
      expect(await newestFirst(view, 97)).toEqual([...forward].reverse());
      const start = "2026-01-02T10:03:00.000Z";
      const bounded = (await everyObservation(view, 1000, start)).map((line) => line.split(" ")[0]!);
      expect(await newestFirst(view, 41, { date: [`ge${start}`] })).toEqual([...bounded].reverse());
    });
  }
});
