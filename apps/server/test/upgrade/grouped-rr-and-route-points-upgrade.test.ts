import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, createDatabase, type Database } from "@svc/db";
import { AppError, listRrIntervals, listWorkoutRoute, writeHeartbeatSeries, writeWorkouts } from "@svc/core";
import type { connectSql } from "@svc/testing";
import { databaseBeforeMigration } from "../helpers/upgrade.ts";

// The upgrade that groups RR intervals and route points in chunks (migration
// *_grouped_rr_and_route_points): a database holding them one row each, as the release before
// stored them, is upgraded, and every page reads back as it did, field by field, in the same order.
const MIGRATION = "grouped_rr_and_route_points";
const TENANT = "7b3d0000-0000-4000-8000-0000000000aa";
const users = ["7b3d0000-0000-4000-8000-000000000001", "7b3d0000-0000-4000-8000-000000000002"] as const;
const idOf = (kind: number, n: number) => `7b3d0000-0000-4000-8000-${String(kind * 100 + n).padStart(12, "0")}`;
const [SERIES, WORKOUT] = [1, 2];

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
const before = new Map<number, Row[][]>();
let oldRouteCursor: string;
let oldRrCursor: string;

beforeAll(async () => {
  ({ url, sql } = await databaseBeforeMigration(MIGRATION));
  await sql.query(`INSERT INTO tenants (id, name) VALUES ($1, 'upgrade')`, [TENANT]);
  for (const user of users) await sql.query(`INSERT INTO users (id, tenant_id, updated_at) VALUES ($1, $2, now())`, [user, TENANT]);

  const series = async (n: number, user: string, provider: string, start: string, end: string) =>
    sql.query(
      `INSERT INTO heartbeat_series (id, user_id, start_date, end_date, beat_count, provider, source, source_key, device, dedupe_key)
       VALUES ($1, $2, $3, $4, 0, $5, $5, $5, 'strap', 'id:h' || $6)`,
      [idOf(SERIES, n), user, start, end, provider, n],
    );
  // A strap's night: 10,000 intervals (three chunks) of values as FIT gives them (1/1024 s) and
  // HealthKit's sums, gaps at every 997th.
  await series(1, alice, "polar", "2026-02-01T08:00:00Z", "2026-02-01T10:00:00Z");
  await sql.query(
    `INSERT INTO rr_intervals (series_id, user_id, timestamp, interval_ms, preceded_by_gap)
     SELECT $1, $2, timestamptz '2026-02-01T08:00:00Z' + g * interval '700 ms', (ARRAY[700.1953125, 0.1 + 0.2 + 699.4, 700])[g % 3 + 1], g % 997 = 0
     FROM generate_series(1, 10000) g`,
    [idOf(SERIES, 1), alice],
  );
  // A second strap whose beats every 1400 ms fall on the first's from 08:58:20 on. The old order of
  // equal times was by row id, the new one by series id: this series has the larger id and was written later.
  await series(2, alice, "garmin", "2026-02-01T08:58:20Z", "2026-02-01T11:00:00Z");
  await sql.query(
    `INSERT INTO rr_intervals (series_id, user_id, timestamp, interval_ms)
     SELECT $1, $2, timestamptz '2026-02-01T08:58:20Z' + g * interval '1400 ms', 1400 FROM generate_series(1, 5000) g`,
    [idOf(SERIES, 2), alice],
  );
  // Beats hours apart over two days: the span of a chunk ends after a day.
  await series(3, alice, "apple_health", "2026-02-01T12:00:00Z", "2026-02-03T12:00:00Z");
  await sql.query(
    `INSERT INTO rr_intervals (series_id, user_id, timestamp, interval_ms, preceded_by_gap)
     SELECT $1, $2, timestamptz '2026-02-01T12:00:00Z' + g * interval '5 hours', 18000000, true FROM generate_series(1, 9) g`,
    [idOf(SERIES, 3), alice],
  );
  await series(4, bob, "polar", "2026-02-01T08:00:00Z", "2026-02-01T08:00:05Z");
  await sql.query(
    `INSERT INTO rr_intervals (series_id, user_id, timestamp, interval_ms)
     SELECT $1, $2, timestamptz '2026-02-01T08:00:00Z' + g * interval '1 s', 1000 FROM generate_series(1, 5) g`,
    [idOf(SERIES, 4), bob],
  );

  const workout = async (n: number, user: string, start: string, end: string) =>
    sql.query(
      `INSERT INTO workouts (id, user_id, activity_type, start_date, end_date, duration_seconds, provider, source_key, dedupe_key)
       VALUES ($1, $2, 'running', $3, $4, 0, 'garmin', 'garmin', 'id:w' || $5)`,
      [idOf(WORKOUT, n), user, start, end, n],
    );
  // A run of 9,000 points a second with fields missing here and there, and a hike of points
  // hours apart over two days.
  await workout(1, alice, "2026-02-01T07:00:00Z", "2026-02-01T09:30:00Z");
  await sql.query(
    `INSERT INTO workout_route_points (workout_id, user_id, timestamp, latitude, longitude, altitude_meters, speed, heart_rate, accuracy_meters)
     SELECT $1, $2, timestamptz '2026-02-01T07:00:00Z' + g * interval '1 s', 52.52 + g * 0.0000123456789, 13.405 - g * 0.0000098765431,
       CASE WHEN g % 11 = 0 THEN NULL ELSE 34.2 + g % 17 END, CASE WHEN g % 13 = 0 THEN NULL ELSE 2.8 + (g % 5) * 0.1 END,
       CASE WHEN g < 100 THEN NULL ELSE 120 + g % 60 END, NULL
     FROM generate_series(0, 8999) g`,
    [idOf(WORKOUT, 1), alice],
  );
  await workout(2, alice, "2026-02-02T06:00:00Z", "2026-02-04T06:00:00Z");
  await sql.query(
    `INSERT INTO workout_route_points (workout_id, user_id, timestamp, latitude, longitude, altitude_meters, accuracy_meters)
     SELECT $1, $2, timestamptz '2026-02-02T06:00:00Z' + g * interval '7 hours', 46.5 + g * 0.01, 8.0, 1500 + g, 4.5
     FROM generate_series(0, 6) g`,
    [idOf(WORKOUT, 2), alice],
  );
  await workout(3, bob, "2026-02-01T07:00:00Z", "2026-02-01T07:10:00Z");
  await sql.query(
    `INSERT INTO workout_route_points (workout_id, user_id, timestamp, latitude, longitude)
     SELECT $1, $2, timestamptz '2026-02-01T07:00:00Z' + g * interval '1 minute', -33.9, 151.2 FROM generate_series(0, 9) g`,
    [idOf(WORKOUT, 3), bob],
  );

  for (const [index, [table, request]] of REQUESTS.entries()) before.set(index, await pagesBefore(table, request));
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
  it("answers every page as before: the same rows, fields and order, page by page", async () => {
    for (const [index, [table, request]] of REQUESTS.entries()) {
      const expected = before.get(index)!;
      expect(expected.flat().length, JSON.stringify(request)).toBeGreaterThan(0);
      expect(await pagesAfter(table, request), `${table} ${JSON.stringify(request)}`).toEqual(expected);
    }
  });

  it("groups the rows in chunks of up to 4096 that span less than a day, and drops the old tables", async () => {
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
    expect(sizes(idOf(WORKOUT, 1))).toEqual([4096, 4096, 808]);
    expect(sizes(idOf(WORKOUT, 2))).toEqual([4, 3]);
    expect(rows.every((row) => row.offsets === row.n && row.within_a_day)).toBe(true);
    const { rows: tables } = await sql.query(`SELECT to_regclass('rr_intervals') AS rr, to_regclass('workout_route_points') AS route`);
    expect(tables[0]).toEqual({ rr: null, route: null });
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
    expect(await count()).toEqual({ rr: 2 + 2, route: 2 });
    await sql.query(`DELETE FROM users WHERE id = $1`, [alice]);
    expect(await count()).toEqual({ rr: 0, route: 0 });
  });
});
