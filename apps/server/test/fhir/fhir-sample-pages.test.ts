import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, createDatabase, type Database } from "@svc/db";
import { listSamples, moveLegacySampleBatch, searchObservations, writeQuantitySamples } from "@svc/core";
import type { connectSql } from "@svc/testing";
import { databaseBeforeMigration } from "../helpers/upgrade.ts";

// The FHIR search reads the samples of every type in one statement a window, and stops reading
// a type once the page is known: its pages must list exactly the samples listSamples lists, type
// by type, merged by time, also for samples not moved yet since the upgrade that grouped them.
let sql: Awaited<ReturnType<typeof connectSql>>;
let db: Database;
const user = "7a2d3c4e-0000-4000-8000-000000000001";
const settings = { codeSystemBase: "https://svc.example/fhir/CodeSystem", searchUrl: `https://svc.example/v1/users/${user}/fhir/Observation` };
const VIEWS = ["all", "merged"] as const;
const TYPES = ["heart_rate", "step_count", "body_mass"];

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
  await sql.query(
    `INSERT INTO quantity_sample_streams (user_id, type, provider, source_key, on_body, max_duration_seconds, first_start, last_start)
     SELECT user_id, type, provider, source_key, on_body, 0, min(start_date), max(start_date) FROM quantity_samples GROUP BY 1, 2, 3, 4, 5`,
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
  });

  for (const view of VIEWS) {
    it(`lists every sample listSamples lists, in time order, in pages of any size (view ${view})`, async () => {
      const expected = await samplesByTime(view);
      const whole = await everyObservation(view, 1000);
      expect(whole.filter((id) => id.startsWith("qs-"))).toEqual(expected);
      expect(whole.filter((id) => id.startsWith("bp-"))).toHaveLength(40);
      expect(await everyObservation(view, 9)).toEqual(whole);
      expect(await everyObservation(view, 100)).toEqual(whole);
      const start = "2026-01-02T10:03:00.000Z";
      expect((await everyObservation(view, 37, start)).filter((id) => id.startsWith("qs-"))).toEqual(await samplesByTime(view, start));
    });
  }
});
