import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, createDatabase, REPLACED_CHECKSUMS, type Database } from "@svc/db";
import { AppError, LEGACY_MOVES, listRrIntervals, listWorkoutRoute, moveLegacyData, writeHeartbeatSeries, writeWorkouts } from "@svc/core";
import type { connectSql } from "@svc/testing";
import { databaseBeforeMigration } from "../helpers/upgrade.ts";

// The upgrade that groups RR intervals and route points in chunks (migration
// *_grouped_rr_and_route_points): a database holding them one row each, as the release before
// stored them, is upgraded. The rows stay in the renamed tables (*_legacy) until the job
// data-moves moves them, a series or workout a batch; every page reads back as it did, field by
// field, in the same order, right after the upgrade, after a partial move, after writes, after a
// failed batch and after the whole move.
const MIGRATION = "grouped_rr_and_route_points";
/** The migration's first text, which moved the rows itself and dropped the old tables. */
const FIRST_TEXT = readFileSync(new URL("./original-texts/20261127330000_grouped_rr_and_route_points.sql", import.meta.url), "utf8");
const TENANT = "7b3d0000-0000-4000-8000-0000000000aa";
const users = ["7b3d0000-0000-4000-8000-000000000001", "7b3d0000-0000-4000-8000-000000000002"] as const;
const idOf = (kind: number, n: number) => `7b3d0000-0000-4000-8000-${String(kind * 100 + n).padStart(12, "0")}`;
const [SERIES, WORKOUT] = [1, 2];
const LEGACY_TABLES = ["rr_intervals_legacy", "workout_route_points_legacy"];
const moveOf = (table: string) => LEGACY_MOVES.find((move) => move.table === table)!;
const rrMove = moveOf("rr_intervals_legacy");
const routeMove = moveOf("workout_route_points_legacy");
const moves = [rrMove, routeMove];

let url: string;
let sql: Awaited<ReturnType<typeof connectSql>>;
let db: Database;

type Row = Record<string, unknown>;
interface PageRequest {
  user: string;
  parent?: string | undefined;
  start?: string | undefined;
  end?: string | undefined;
  limit: number;
}

/** Every page of a list as the release before read it: by (timestamp, id), one more row to see whether more follow. */
async function pagesBefore(table: "rr" | "route", q: PageRequest): Promise<Row[][]> {
  const pages: Row[][] = [];
  let after: { t: Date; id: string } | undefined;
  for (;;) {
    const params: unknown[] = [q.user];
    const where = [`r.user_id = $1`];
    const add = (condition: (n: string) => string, value: unknown) => {
      params.push(value);
      where.push(condition(`$${params.length}`));
    };
    if (q.parent) add((n) => `r.${table === "rr" ? "series_id" : "workout_id"} = ${n}`, q.parent);
    if (q.start) add((n) => `r.timestamp >= ${n}`, q.start);
    if (q.end) add((n) => `r.timestamp < ${n}`, q.end);
    if (after) {
      add((n) => `(r.timestamp, r.id) > (${n}, `, after.t);
      where[where.length - 1] += `$${params.push(after.id)})`;
    }
    const { rows } = await sql.query(
      table === "rr"
        ? `SELECT r.id, r.series_id, r.timestamp, r.interval_ms, r.preceded_by_gap, h.provider, h.source, h.device, h.ingested_at
           FROM rr_intervals r JOIN heartbeat_series h ON h.user_id = r.user_id AND h.id = r.series_id
           WHERE ${where.join(" AND ")} ORDER BY r.timestamp, r.id LIMIT ${q.limit + 1}`
        : `SELECT r.id, r.timestamp, r.latitude, r.longitude, r.altitude_meters, r.speed, r.heart_rate, r.accuracy_meters
           FROM workout_route_points r WHERE ${where.join(" AND ")} ORDER BY r.timestamp, r.id LIMIT ${q.limit + 1}`,
      params,
    );
    const page = rows.slice(0, q.limit);
    pages.push(page.map((row) => (table === "rr" ? rrDto(row) : pointDto(row))));
    if (rows.length <= q.limit) return pages;
    const last = page.at(-1)!;
    after = { t: last.timestamp, id: last.id };
  }
}

const rrDto = (row: Row) => ({
  series_id: row.series_id,
  timestamp: (row.timestamp as Date).toISOString(),
  interval_ms: row.interval_ms,
  preceded_by_gap: row.preceded_by_gap,
  provider: row.provider,
  source: row.source,
  device: row.device,
  ingested_at: (row.ingested_at as Date).toISOString(),
});

const pointDto = (row: Row) => ({
  timestamp: (row.timestamp as Date).toISOString(),
  latitude: row.latitude,
  longitude: row.longitude,
  altitude_meters: row.altitude_meters,
  speed_meters_per_second: row.speed,
  heart_rate: row.heart_rate,
  accuracy_meters: row.accuracy_meters,
});

/** Every page of a list as the service reads it now. */
async function pagesAfter(table: "rr" | "route", q: PageRequest): Promise<Row[][]> {
  const pages: Row[][] = [];
  let cursor: string | undefined;
  for (;;) {
    const input = { start: q.start, end: q.end, cursor, limit: q.limit };
    const page =
      table === "rr" ? await listRrIntervals(db, q.user, { ...input, series_id: q.parent }) : await listWorkoutRoute(db, q.user, q.parent!, input);
    pages.push(page.data as unknown as Row[]);
    if (page.next_cursor === null) return pages;
    cursor = page.next_cursor;
  }
}

const [alice, bob] = users;
/** The lists compared: every series and workout, across series, windows (one cutting a chunk) and page sizes. */
const REQUESTS: Array<["rr" | "route", PageRequest]> = [
  ...[1000, 333, 4096].map((limit): ["rr", PageRequest] => ["rr", { user: alice, limit }]),
  // One at a time where beats of two series fall on one time.
  ["rr", { user: alice, start: "2026-02-01T08:58:00Z", end: "2026-02-01T08:59:30Z", limit: 1 }],
  ["rr", { user: alice, parent: idOf(SERIES, 1), limit: 1000 }],
  ["rr", { user: alice, parent: idOf(SERIES, 2), limit: 250 }],
  ["rr", { user: alice, parent: idOf(SERIES, 3), limit: 3 }],
  ["rr", { user: alice, start: "2026-02-01T08:40:00Z", end: "2026-02-01T09:10:00.5Z", limit: 700 }],
  ["rr", { user: alice, start: "2026-02-02T07:00:00Z", limit: 2 }],
  ["rr", { user: bob, limit: 10 }],
  ["route", { user: alice, parent: idOf(WORKOUT, 1), limit: 1000 }],
  ["route", { user: alice, parent: idOf(WORKOUT, 1), limit: 4097 }],
  ["route", { user: alice, parent: idOf(WORKOUT, 1), start: "2026-02-01T07:50:00Z", end: "2026-02-01T08:20:00Z", limit: 333 }],
  ["route", { user: alice, parent: idOf(WORKOUT, 2), limit: 4 }],
  ["route", { user: bob, parent: idOf(WORKOUT, 3), limit: 10 }],
];

/** Every user's RR intervals and every workout's points as reads must answer them, in read order. */
const oracle = { rr: new Map<string, Row[]>(), route: new Map<string, Row[]>() };
const before = new Map<number, Row[][]>();
let oldRouteCursor: string;
let oldRrCursor: string;

/** The pages a request must answer: the oracle's rows in its window, `limit` a page. */
function expectedPages(table: "rr" | "route", q: PageRequest): Row[][] {
  const rows = (table === "rr" ? oracle.rr.get(q.user) : oracle.route.get(q.parent!)) ?? [];
  const time = (row: Row) => Date.parse(row.timestamp as string);
  const inWindow = rows.filter(
    (row) =>
      (table === "route" || !q.parent || row.series_id === q.parent) &&
      (!q.start || time(row) >= Date.parse(q.start)) &&
      (!q.end || time(row) < Date.parse(q.end)),
  );
  const pages: Row[][] = [];
  for (let from = 0; from === 0 || from < inWindow.length; from += q.limit) pages.push(inWindow.slice(from, from + q.limit));
  return pages;
}

/** Every request's pages equal the oracle's. */
async function expectReadsAsOracle(when: string): Promise<void> {
  for (const [table, request] of REQUESTS) {
    expect(await pagesAfter(table, request), `${when}: ${table} ${JSON.stringify(request)}`).toEqual(expectedPages(table, request));
  }
}

const legacyCounts = async () =>
  (
    await sql.query(
      `SELECT (SELECT count(*) FROM rr_intervals_legacy)::int AS rr, (SELECT count(*) FROM workout_route_points_legacy)::int AS route,
         (SELECT coalesce(sum(interval_count), 0) FROM rr_interval_chunks)::int AS rr_chunked,
         (SELECT coalesce(sum(point_count), 0) FROM workout_route_chunks)::int AS route_chunked`,
    )
  ).rows[0];

/** The stored rows of the release before: RR intervals of four series, points of three workouts. */
async function insertRows(client: Awaited<ReturnType<typeof connectSql>>): Promise<void> {
  await client.query(`INSERT INTO tenants (id, name) VALUES ($1, 'upgrade')`, [TENANT]);
  for (const user of users) await client.query(`INSERT INTO users (id, tenant_id, updated_at) VALUES ($1, $2, now())`, [user, TENANT]);

  const series = async (n: number, user: string, provider: string, start: string, end: string) =>
    client.query(
      `INSERT INTO heartbeat_series (id, user_id, start_date, end_date, beat_count, provider, source, source_key, device, dedupe_key)
       VALUES ($1, $2, $3, $4, 0, $5, $5, $5, 'strap', 'id:h' || $6)`,
      [idOf(SERIES, n), user, start, end, provider, n],
    );
  // A strap's night: 10,000 intervals (three chunks) of values as FIT gives them (1/1024 s) and
  // HealthKit's sums, gaps at every 997th.
  await series(1, alice, "polar", "2026-02-01T08:00:00Z", "2026-02-01T10:00:00Z");
  await client.query(
    `INSERT INTO rr_intervals (series_id, user_id, timestamp, interval_ms, preceded_by_gap)
     SELECT $1, $2, timestamptz '2026-02-01T08:00:00Z' + g * interval '700 ms', (ARRAY[700.1953125, 0.1 + 0.2 + 699.4, 700])[g % 3 + 1], g % 997 = 0
     FROM generate_series(1, 10000) g`,
    [idOf(SERIES, 1), alice],
  );
  // A second strap whose beats every 1400 ms fall on the first's from 08:58:20 on. The old order of
  // equal times was by row id, the new one by series id: this series has the larger id and was written later.
  await series(2, alice, "garmin", "2026-02-01T08:58:20Z", "2026-02-01T11:00:00Z");
  await client.query(
    `INSERT INTO rr_intervals (series_id, user_id, timestamp, interval_ms)
     SELECT $1, $2, timestamptz '2026-02-01T08:58:20Z' + g * interval '1400 ms', 1400 FROM generate_series(1, 5000) g`,
    [idOf(SERIES, 2), alice],
  );
  // Beats hours apart over two days: the span of a chunk ends after a day.
  await series(3, alice, "apple_health", "2026-02-01T12:00:00Z", "2026-02-03T12:00:00Z");
  await client.query(
    `INSERT INTO rr_intervals (series_id, user_id, timestamp, interval_ms, preceded_by_gap)
     SELECT $1, $2, timestamptz '2026-02-01T12:00:00Z' + g * interval '5 hours', 18000000, true FROM generate_series(1, 9) g`,
    [idOf(SERIES, 3), alice],
  );
  await series(4, bob, "polar", "2026-02-01T08:00:00Z", "2026-02-01T08:00:05Z");
  await client.query(
    `INSERT INTO rr_intervals (series_id, user_id, timestamp, interval_ms)
     SELECT $1, $2, timestamptz '2026-02-01T08:00:00Z' + g * interval '1 s', 1000 FROM generate_series(1, 5) g`,
    [idOf(SERIES, 4), bob],
  );

  const workout = async (n: number, user: string, start: string, end: string) =>
    client.query(
      `INSERT INTO workouts (id, user_id, activity_type, start_date, end_date, duration_seconds, provider, source_key, dedupe_key)
       VALUES ($1, $2, 'running', $3, $4, 0, 'garmin', 'garmin', 'id:w' || $5)`,
      [idOf(WORKOUT, n), user, start, end, n],
    );
  // A run of 9,000 points a second with fields missing here and there, and a hike of points
  // hours apart over two days.
  await workout(1, alice, "2026-02-01T07:00:00Z", "2026-02-01T09:30:00Z");
  await client.query(
    `INSERT INTO workout_route_points (workout_id, user_id, timestamp, latitude, longitude, altitude_meters, speed, heart_rate, accuracy_meters)
     SELECT $1, $2, timestamptz '2026-02-01T07:00:00Z' + g * interval '1 s', 52.52 + g * 0.0000123456789, 13.405 - g * 0.0000098765431,
       CASE WHEN g % 11 = 0 THEN NULL ELSE 34.2 + g % 17 END, CASE WHEN g % 13 = 0 THEN NULL ELSE 2.8 + (g % 5) * 0.1 END,
       CASE WHEN g < 100 THEN NULL ELSE 120 + g % 60 END, NULL
     FROM generate_series(0, 8999) g`,
    [idOf(WORKOUT, 1), alice],
  );
  await workout(2, alice, "2026-02-02T06:00:00Z", "2026-02-04T06:00:00Z");
  await client.query(
    `INSERT INTO workout_route_points (workout_id, user_id, timestamp, latitude, longitude, altitude_meters, accuracy_meters)
     SELECT $1, $2, timestamptz '2026-02-02T06:00:00Z' + g * interval '7 hours', 46.5 + g * 0.01, 8.0, 1500 + g, 4.5
     FROM generate_series(0, 6) g`,
    [idOf(WORKOUT, 2), alice],
  );
  await workout(3, bob, "2026-02-01T07:00:00Z", "2026-02-01T07:10:00Z");
  await client.query(
    `INSERT INTO workout_route_points (workout_id, user_id, timestamp, latitude, longitude)
     SELECT $1, $2, timestamptz '2026-02-01T07:00:00Z' + g * interval '1 minute', -33.9, 151.2 FROM generate_series(0, 9) g`,
    [idOf(WORKOUT, 3), bob],
  );
}

/**
 * Columns, indexes and constraints of a table, as the catalog describes them. Not null is read
 * from the columns: PostgreSQL 18 also lists it as constraints named after the table's first name.
 */
async function shapeOf(client: Awaited<ReturnType<typeof connectSql>>, table: string) {
  const { rows } = await client.query(
    `SELECT
       (SELECT json_agg(json_build_object('name', column_name, 'type', data_type, 'nullable', is_nullable, 'default', column_default,
          'precision', datetime_precision) ORDER BY ordinal_position)
        FROM information_schema.columns WHERE table_schema = 'public' AND table_name = $1) AS columns,
       (SELECT json_agg(indexdef ORDER BY indexname) FROM pg_indexes WHERE schemaname = 'public' AND tablename = $1) AS indexes,
       (SELECT json_agg(conname || ': ' || pg_get_constraintdef(oid) ORDER BY conname) FROM pg_constraint
        WHERE conrelid = $1::regclass AND contype <> 'n') AS constraints`,
    [table],
  );
  return rows[0];
}

/** The chunks of the series and workouts no write touched after the upgrade, as the job moved them. */
let movedChunks: Row[][];
const chunksNoWriteTouched = async (client: Awaited<ReturnType<typeof connectSql>>) => {
  const series = [1, 2, 4].map((n) => idOf(SERIES, n));
  const workouts = [1, 3].map((n) => idOf(WORKOUT, n));
  return [
    (await client.query(`SELECT * FROM rr_interval_chunks WHERE series_id = ANY($1) ORDER BY series_id, chunk_no`, [series])).rows,
    (await client.query(`SELECT * FROM workout_route_chunks WHERE workout_id = ANY($1) ORDER BY workout_id, chunk_no`, [workouts])).rows,
  ];
};

beforeAll(async () => {
  ({ url, sql } = await databaseBeforeMigration(MIGRATION));
  await insertRows(sql);
  for (const [index, [table, request]] of REQUESTS.entries()) before.set(index, await pagesBefore(table, request));
  for (const user of users) oracle.rr.set(user, (await pagesBefore("rr", { user, limit: 100_000 })).flat());
  for (const [n, user] of [[1, alice], [2, alice], [3, bob]] as const) {
    oracle.route.set(idOf(WORKOUT, n), (await pagesBefore("route", { user, parent: idOf(WORKOUT, n), limit: 100_000 })).flat());
  }
  // Cursors as the release before answered them: the second page's.
  const { rows: rr } = await sql.query(`SELECT timestamp, id FROM rr_intervals WHERE user_id = $1 ORDER BY timestamp, id OFFSET 999 LIMIT 1`, [alice]);
  oldRrCursor = Buffer.from(JSON.stringify({ t: rr[0].timestamp.toISOString(), id: rr[0].id })).toString("base64url");
  const { rows: point } = await sql.query(`SELECT timestamp, id FROM workout_route_points WHERE workout_id = $1 ORDER BY timestamp, id OFFSET 999 LIMIT 1`, [
    idOf(WORKOUT, 1),
  ]);
  oldRouteCursor = Buffer.from(JSON.stringify({ t: point[0].timestamp.toISOString(), id: point[0].id })).toString("base64url");

  await applyMigrations(url);
  db = createDatabase(url, { max: 2 });
});

afterAll(async () => {
  await sql?.end();
  await db?.$disconnect();
});

describe("the upgrade to grouped RR intervals and route points", () => {
  it("leaves the rows in the legacy tables and answers every page as before: the same rows, fields and order, page by page", async () => {
    expect(await legacyCounts()).toEqual({ rr: 15_014, route: 9_017, rr_chunked: 0, route_chunked: 0 });
    for (const [index, [table, request]] of REQUESTS.entries()) {
      const expected = before.get(index)!;
      expect(expected.flat().length, JSON.stringify(request)).toBeGreaterThan(0);
      expect(expectedPages(table, request), `oracle ${table} ${JSON.stringify(request)}`).toEqual(expected);
      expect(await pagesAfter(table, request), `${table} ${JSON.stringify(request)}`).toEqual(expected);
    }
  });

  it("answers every page as before while the rows are partly moved", async () => {
    // Alice's first two series, and her first workout.
    expect(await moveLegacyData(db, { moves: [rrMove], maxBatches: 2 })).toEqual({ moved: { rr_intervals_legacy: 15_000 }, done: false });
    expect(await moveLegacyData(db, { moves: [routeMove], maxBatches: 1 })).toEqual({ moved: { workout_route_points_legacy: 9_000 }, done: false });
    expect(await legacyCounts()).toEqual({ rr: 14, route: 17, rr_chunked: 15_000, route_chunked: 9_000 });
    await expectReadsAsOracle("partly moved");
  });

  it("a writer moves the rows of the series and workouts it writes first: reads show the rows of before with the new ones", async () => {
    const batch = { userId: alice, provider: "apple_health" };
    // Series 3 again, its last beat no longer after a gap; and a new series whose beats fall between series 1's.
    const series3 = {
      start_date: new Date("2026-02-01T12:00:00Z"),
      end_date: new Date("2026-02-03T12:00:00Z"),
      beats: Array.from({ length: 10 }, (_, g) => ({ timestamp: new Date(Date.parse("2026-02-01T12:00:00Z") + g * 5 * 3_600_000), preceded_by_gap: g > 0 && g < 9 })),
      external_id: "h3",
    };
    const fresh = {
      start_date: new Date("2026-02-01T09:00:00.350Z"),
      beats: Array.from({ length: 50 }, (_, g) => ({ timestamp: new Date(Date.parse("2026-02-01T09:00:00.350Z") + g * 650) })),
      external_id: "fresh",
    };
    const route2 = oracle.route.get(idOf(WORKOUT, 2))!.map((p, i, all) => ({
      timestamp: new Date(p.timestamp as string),
      latitude: p.latitude as number,
      longitude: p.longitude as number,
      altitude: p.altitude_meters as number | null,
      speed: i === all.length - 1 ? 3.5 : (p.speed_meters_per_second as number | null),
      heart_rate: p.heart_rate as number | null,
      accuracy: p.accuracy_meters as number | null,
    }));
    const run2 = { activity_type: "running", start_date: new Date("2026-02-02T06:00:00Z"), end_date: new Date("2026-02-04T06:00:00Z"), external_id: "w2", route: route2 };
    const written = await db.$transaction(async (tx) => [
      await writeHeartbeatSeries(tx, batch, [series3, fresh]),
      await writeWorkouts(tx, { userId: alice, provider: "garmin" }, [run2]),
    ]);
    expect(written).toMatchObject([{ inserted: 1, updated: 1 }, { updated: 1 }]);
    expect(await legacyCounts()).toEqual({ rr: 5, route: 10, rr_chunked: 15_000 + 9 + 49, route_chunked: 9_000 + 7 });

    const { rows: stored } = await sql.query(
      `SELECT id, provider, source, device, ingested_at FROM heartbeat_series WHERE user_id = $1 AND external_id IN ('h3', 'fresh')`,
      [alice],
    );
    const provenance = (id: string) => {
      const row = stored.find((s) => s.id === id)!;
      return { provider: row.provider, source: row.source, device: row.device, ingested_at: (row.ingested_at as Date).toISOString() };
    };
    const freshId = stored.find((s) => s.id !== idOf(SERIES, 3))!.id as string;
    const aliceRr = oracle.rr.get(alice)!.map((row) =>
      row.series_id === idOf(SERIES, 3)
        ? { ...row, ...provenance(idOf(SERIES, 3)), preceded_by_gap: row.timestamp !== "2026-02-03T09:00:00.000Z" }
        : row,
    );
    const freshRows = fresh.beats.slice(1).map((beat) => ({
      series_id: freshId,
      timestamp: beat.timestamp.toISOString(),
      interval_ms: 650,
      preceded_by_gap: false,
      ...provenance(freshId),
    }));
    const order = (a: Row, b: Row) =>
      (a.timestamp as string).localeCompare(b.timestamp as string) || (a.series_id as string).localeCompare(b.series_id as string);
    oracle.rr.set(alice, [...aliceRr, ...freshRows].sort(order));
    oracle.route.set(
      idOf(WORKOUT, 2),
      oracle.route.get(idOf(WORKOUT, 2))!.map((p, i, all) => (i === all.length - 1 ? { ...p, speed_meters_per_second: 3.5 } : p)),
    );
    await expectReadsAsOracle("after writes");
  });

  it("a batch that fails leaves every row where it was", async () => {
    const failing = new Proxy(db, {
      get(target, key) {
        if (key === "$transaction") {
          return (work: (tx: unknown) => Promise<unknown>, options: unknown) =>
            target.$transaction(async (tx) => {
              await work(tx);
              throw new Error("the batch fails after its writes");
            }, options as { timeout: number });
        }
        const value = Reflect.get(target, key);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    for (const move of [rrMove, routeMove]) await expect(move.moveBatch(failing)).rejects.toThrow("the batch fails after its writes");
    expect(await legacyCounts()).toEqual({ rr: 5, route: 10, rr_chunked: 15_058, route_chunked: 9_007 });
    await expectReadsAsOracle("after a failed batch");
  });

  it("moves every row, and answers every page as before", async () => {
    expect(await moveLegacyData(db, { moves })).toEqual({ moved: { rr_intervals_legacy: 5, workout_route_points_legacy: 10 }, done: true });
    expect(await legacyCounts()).toEqual({ rr: 0, route: 0, rr_chunked: 15_063, route_chunked: 9_017 });
    await expectReadsAsOracle("moved");
    movedChunks = await chunksNoWriteTouched(sql);
    expect(movedChunks.map((rows) => rows.length)).toEqual([3 + 2 + 1, 3 + 1]);
    expect(await moveLegacyData(db, { moves })).toEqual({ moved: { rr_intervals_legacy: 0, workout_route_points_legacy: 0 }, done: true });
  });

  it("groups the rows in chunks of up to 4096 that span less than a day", async () => {
    const { rows } = await sql.query(
      `SELECT series_id AS parent, chunk_no, interval_count AS n, cardinality(offsets_ms) AS offsets, last_at - first_at < interval '1 day' AS within_a_day
       FROM rr_interval_chunks
       UNION ALL
       SELECT workout_id, chunk_no, point_count, cardinality(latitude), last_at - first_at < interval '1 day' FROM workout_route_chunks
       ORDER BY parent, chunk_no`,
    );
    const sizes = (parent: string) => rows.filter((row) => row.parent === parent).map((row) => row.n);
    expect(sizes(idOf(SERIES, 1))).toEqual([4096, 4096, 1808]);
    expect(sizes(idOf(SERIES, 2))).toEqual([4096, 904]);
    // Beats at 5 h, 10 h, ... after noon: the first day since the first beat holds five of them.
    expect(sizes(idOf(SERIES, 3))).toEqual([5, 4]);
    expect(sizes(idOf(SERIES, 4))).toEqual([5]);
    expect(sizes(idOf(WORKOUT, 1))).toEqual([4096, 4096, 808]);
    expect(sizes(idOf(WORKOUT, 2))).toEqual([4, 3]);
    expect(sizes(idOf(WORKOUT, 3))).toEqual([10]);
    expect(rows.every((row) => row.offsets === row.n && row.within_a_day)).toBe(true);
  });

  it("lays out chunks as the writers do: the same series and route written anew gives the same chunks", async () => {
    const intervals = (await pagesAfter("rr", { user: alice, parent: idOf(SERIES, 1), limit: 1000 })).flat();
    const points = (await pagesAfter("route", { user: alice, parent: idOf(WORKOUT, 1), limit: 1000 })).flat();
    const batch = { userId: bob, provider: "polar" };
    const series = {
      start_date: new Date("2026-02-01T08:00:00Z"),
      beats: [{ timestamp: new Date("2026-02-01T08:00:00Z") }, ...intervals.map((r) => ({ timestamp: new Date(r.timestamp as string) }))],
      external_id: "copy",
    };
    const run = {
      activity_type: "running",
      start_date: new Date("2026-02-01T07:00:00Z"),
      end_date: new Date("2026-02-01T09:30:00Z"),
      external_id: "copy",
      route: points.map((p) => ({
        timestamp: new Date(p.timestamp as string),
        latitude: p.latitude as number,
        longitude: p.longitude as number,
        altitude: p.altitude_meters as number | null,
        speed: p.speed_meters_per_second as number | null,
        heart_rate: p.heart_rate as number | null,
        accuracy: p.accuracy_meters as number | null,
      })),
    };
    const write = () => db.$transaction(async (tx) => [await writeHeartbeatSeries(tx, batch, [series]), await writeWorkouts(tx, batch, [run])]);
    expect(await write()).toMatchObject([{ inserted: 1 }, { inserted: 1 }]);
    // Written again: nothing changed, nothing is written.
    expect(await write()).toMatchObject([{ unchanged: 1 }, { unchanged: 1 }]);
    const layout = async (table: string, parent: string, id: string) =>
      (await sql.query(`SELECT chunk_no, first_at, last_at, offsets_ms FROM ${table} WHERE ${parent} = $1 ORDER BY chunk_no`, [id])).rows;
    const { rows: copies } = await sql.query(
      `SELECT (SELECT id FROM heartbeat_series WHERE user_id = $1 AND external_id = 'copy') AS series,
         (SELECT id FROM workouts WHERE user_id = $1 AND external_id = 'copy') AS workout`,
      [bob],
    );
    expect(await layout("rr_interval_chunks", "series_id", copies[0].series)).toEqual(await layout("rr_interval_chunks", "series_id", idOf(SERIES, 1)));
    expect(await layout("workout_route_chunks", "workout_id", copies[0].workout)).toEqual(
      await layout("workout_route_chunks", "workout_id", idOf(WORKOUT, 1)),
    );
  });

  it("reads on from a route cursor of the release before; an RR cursor of it is a 400", async () => {
    const page = await listWorkoutRoute(db, alice, idOf(WORKOUT, 1), { cursor: oldRouteCursor, limit: 1000 });
    expect(page.data).toEqual(before.get(REQUESTS.findIndex(([table, q]) => table === "route" && q.limit === 1000))![1]);
    const old = listRrIntervals(db, alice, { cursor: oldRrCursor, limit: 1000 });
    await expect(old).rejects.toBeInstanceOf(AppError);
    await expect(old).rejects.toMatchObject({ code: "bad_request", status: 400 });
  });

  it("deletes chunks with their series or workout, and with their user", async () => {
    await sql.query(`DELETE FROM heartbeat_series WHERE id = $1`, [idOf(SERIES, 1)]);
    await sql.query(`DELETE FROM workouts WHERE id = $1`, [idOf(WORKOUT, 1)]);
    const count = async () =>
      (
        await sql.query(
          `SELECT (SELECT count(*) FROM rr_interval_chunks WHERE user_id = $1)::int AS rr, (SELECT count(*) FROM workout_route_chunks WHERE user_id = $1)::int AS route`,
          [alice],
        )
      ).rows[0];
    // Series 2 and 3, and the series written since; workout 2.
    expect(await count()).toEqual({ rr: 2 + 2 + 1, route: 2 });
    await sql.query(`DELETE FROM users WHERE id = $1`, [alice]);
    expect(await count()).toEqual({ rr: 0, route: 0 });
  });
});

describe("a database that applied the migration's first text", () => {
  it("is accepted, gets empty legacy tables of the same shape, and its chunks are laid out as the job lays them out", async () => {
    const upgrade = await databaseBeforeMigration(MIGRATION);
    const first = FIRST_TEXT;
    const checksum = createHash("sha256").update(first).digest("hex");
    expect(checksum).toBe("4c67a11bfa5b893f9c869132ce4670336e48fa1eda97d37cb10fe6f1df5fd323");
    const other = upgrade.sql;
    const otherDb = createDatabase(upgrade.url, { max: 2 });
    try {
      await insertRows(other);
      await applyMigrations(upgrade.url, [{ ...upgrade.migrations[upgrade.at]!, sql: first, checksum }]);
      const applied = await applyMigrations(upgrade.url);
      expect(applied).not.toContain(upgrade.migrations[upgrade.at]!.name);
      expect(applied).toContain("20261127410000_legacy_rr_and_route_points");
      for (const table of LEGACY_TABLES) {
        expect((await other.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n, table).toBe(0);
        const shape = await shapeOf(other, table);
        expect(shape.columns.length, table).toBeGreaterThan(0);
        expect(shape, table).toEqual(await shapeOf(sql, table));
      }
      // The first text moved the rows itself; the job moved them the same way.
      expect(await chunksNoWriteTouched(other)).toEqual(movedChunks);

      // Rows put in the legacy tables here are read, and deleted with their parent.
      await other.query(
        `INSERT INTO rr_intervals_legacy (series_id, user_id, timestamp, interval_ms) VALUES ($1, $2, '2026-02-01T08:00:06Z', 1000), ($1, $2, '2026-02-01T08:00:07Z', 1000)`,
        [idOf(SERIES, 4), bob],
      );
      expect((await listRrIntervals(otherDb, bob, { limit: 10 })).data.map((r) => r.timestamp)).toEqual([
        ...[1, 2, 3, 4, 5].map((s) => `2026-02-01T08:00:0${s}.000Z`),
        "2026-02-01T08:00:06.000Z",
        "2026-02-01T08:00:07.000Z",
      ]);
      await other.query(
        `INSERT INTO workout_route_points_legacy (workout_id, user_id, timestamp, latitude, longitude) VALUES ($1, $2, '2026-02-01T08:00:00Z', 1, 2)`,
        [idOf(WORKOUT, 3), bob],
      );
      await other.query(`DELETE FROM heartbeat_series WHERE id = $1`, [idOf(SERIES, 4)]);
      await other.query(`DELETE FROM workouts WHERE id = $1`, [idOf(WORKOUT, 3)]);
      for (const table of LEGACY_TABLES) expect((await other.query(`SELECT count(*)::int AS n FROM ${table}`)).rows[0].n, table).toBe(0);
    } finally {
      await other.end();
      await otherDb.$disconnect();
    }
  });
});
