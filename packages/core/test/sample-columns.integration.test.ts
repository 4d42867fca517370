// readSampleColumns (records/samples/sample-column-repository.ts): a window's rows as columns from
// a pool. A page whose rows came out of (start, id) order, or with a sample of a series unknown
// to the user, is copied into other columns of the pool in order without it; the columns read
// first go back to the pool, and a later read fills them again.
import { randomUUID } from "node:crypto";
import { createDatabase, type Database, Prisma } from "@svc/db";
import { createTestDatabase } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readSampleColumns, SampleColumnsPool, SeriesLookup } from "../src/records/samples/sample-column-repository.ts";

let db: Database;
beforeAll(async () => {
  db = createDatabase(await createTestDatabase(), { max: 1 });
});
afterAll(() => db?.$disconnect());

const legacySeries = { type: "heart_rate", unit: "count/min", provider: "withings", source: "withings", device: null };

/** A window's statement of the EXPORT_COLUMNS shape, rows as given: [id, start ms, series id or null for the legacy series]. */
const windowOf = (rows: ReadonlyArray<[number, number, string | null]>) =>
  Prisma.sql`SELECT id::text, value, start_ms, start_ms AS end_ms, NULL::text AS external_id, start_ms AS ingested_ms,
      series_id, CASE WHEN series_id IS NULL THEN ${JSON.stringify(legacySeries)}::json END AS legacy_series, true AS kept, NULL::float8 AS cut_end_ms
    FROM (VALUES ${Prisma.join(rows.map(([id, start, series]) => Prisma.sql`(${id}::bigint, ${id * 1.5}::float8, ${start}::float8, ${series}::text)`))}) AS w(id, value, start_ms, series_id)`;

describe("readSampleColumns", () => {
  it("puts a page read out of order in order, leaves out a sample of an unknown series, and fills pooled columns again", async () => {
    const pool = new SampleColumnsPool();
    const lookup = new SeriesLookup(db, randomUUID(), ["heart_rate"]);
    const first = await readSampleColumns(db, windowOf([[3, 2_000, null], [1, 1_000, null], [9, 1_500, "999"], [2, 1_000, null]]), 10, lookup, pool);
    const { columns } = first;
    expect(columns.length).toBe(3);
    expect([...columns.ids.subarray(0, 3)]).toEqual([1n, 2n, 3n]);
    expect([...columns.values.subarray(0, 3)]).toEqual([1.5, 3, 4.5]);
    expect([...columns.startMs.subarray(0, 3)]).toEqual([1_000, 1_000, 2_000]);
    expect(columns.series).toEqual([legacySeries, legacySeries, legacySeries]);
    expect(columns.externalIds).toEqual([null, null, null]);

    // The columns read first went back to the pool: the next read fills them, and then these.
    const second = await readSampleColumns(db, windowOf([[4, 3_000, null]]), 10, lookup, pool);
    expect(second.columns).not.toBe(columns);
    pool.give(columns);
    const third = await readSampleColumns(db, windowOf([[5, 4_000, null], [6, 5_000, null]]), 10, lookup, pool);
    expect(third.columns).toBe(columns);
    expect(third.columns.length).toBe(2);
    expect([...third.columns.ids.subarray(0, 2)]).toEqual([5n, 6n]);
    expect(third.columns.series.slice(0, 2)).toEqual([legacySeries, legacySeries]);
  });
});
