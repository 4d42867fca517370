import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { applyMigrations, createDatabase, type Database } from "@svc/db";
import { getEcgRecording, listHrvResults, listRrIntervals, listSleepPhases, listWorkoutRoute, listWorkouts, moveLegacyData } from "@svc/core";
import type { connectSql } from "@svc/testing";
import { databaseBeforeMigration } from "../helpers/upgrade.ts";

// The upgrade that keys every table of user data by user (migration *_per_user_keys): a
// database holding sessions, workouts, series, recordings and connections with their parts is
// upgraded; every row keeps its values and id, the parts get their parent's user, and the
// service reads them as before.
const MIGRATION = "per_user_keys";
const TENANT = "7a2c0000-0000-4000-8000-0000000000aa";
const users = ["7a2c0000-0000-4000-8000-000000000001", "7a2c0000-0000-4000-8000-000000000002"] as const;
const idOf = (kind: number, user: number) => `7a2c0000-0000-4000-8000-${String(kind * 100 + user).padStart(12, "0")}`;
const [SLEEP, WORKOUT, SERIES, ECG] = [1, 2, 3, 4];

/** Tables and the order their rows are compared in; the parts gain user_id. */
const TABLES: Record<string, string> = {
  sleep_sessions: "id",
  sleep_phases: "id",
  workouts: "id",
  workout_route_points: "id",
  workout_track_summaries: "workout_id",
  heartbeat_series: "id",
  rr_intervals: "id",
  hrv_results: "series_id",
  ecg_recordings: "id",
  ecg_voltages: "recording_id",
  connections: "id",
  sync_runs: "id",
  push_subscriptions: "id",
};
/** Parts a later migration stores grouped (*_grouped_rr_and_route_points): their table now, and its column counting rows. */
const GROUPED: Record<string, { table: string; count: string }> = {
  workout_route_points: { table: "workout_route_chunks", count: "point_count" },
  rr_intervals: { table: "rr_interval_chunks", count: "interval_count" },
};
const PARTS: Record<string, { parent: string; key: string }> = {
  sleep_phases: { parent: "sleep_sessions", key: "session_id" },
  workout_route_points: { parent: "workouts", key: "workout_id" },
  workout_track_summaries: { parent: "workouts", key: "workout_id" },
  ecg_voltages: { parent: "ecg_recordings", key: "recording_id" },
};

let url: string;
let sql: Awaited<ReturnType<typeof connectSql>>;
let db: Database;
const before: Record<string, Array<Record<string, unknown>>> = {};
const after: Record<string, Array<Record<string, unknown>>> = {};
/** Rows of each part whose user is its parent's, right after the upgrade. */
const withParentsUser: Record<string, number> = {};

const rowsOf = async (table: string) => (await sql.query(`SELECT * FROM "${table}" ORDER BY ${TABLES[table]}`)).rows;

beforeAll(async () => {
  const upgrade = await databaseBeforeMigration(MIGRATION);
  ({ url, sql } = upgrade);
  await sql.query(`INSERT INTO tenants (id, name) VALUES ($1, 'upgrade')`, [TENANT]);
  for (const [index, user] of users.entries()) {
    const u = index + 1;
    const day = `2026-02-0${u}`;
    await sql.query(`INSERT INTO users (id, tenant_id, updated_at) VALUES ($1, $2, now())`, [user, TENANT]);
    await sql.query(
      `INSERT INTO sleep_sessions (id, user_id, bedtime_start, bedtime_end, provider, source_key, dedupe_key)
       VALUES ($1, $2, $3::date + time '22:00', $3::date + time '23:30', 'oura', 'oura', 'id:s1')`,
      [idOf(SLEEP, u), user, day],
    );
    await sql.query(
      `INSERT INTO sleep_phases (session_id, stage, start_date, end_date)
       SELECT $1, (ARRAY['light', 'deep', 'rem'])[g % 3 + 1], $2::date + time '22:00' + g * interval '30 minutes',
         $2::date + time '22:30' + g * interval '30 minutes'
       FROM generate_series(0, 2) g`,
      [idOf(SLEEP, u), day],
    );
    await sql.query(
      `INSERT INTO workouts (id, user_id, activity_type, start_date, end_date, duration_seconds, provider, source_key, dedupe_key)
       VALUES ($1, $2, 'running', $3::date + time '07:00', $3::date + time '07:10', 600, 'garmin', 'garmin', 'id:w1')`,
      [idOf(WORKOUT, u), user, day],
    );
    await sql.query(
      `INSERT INTO workout_route_points (workout_id, timestamp, latitude, longitude, altitude_meters)
       SELECT $1, $2::date + time '07:00' + g * interval '1 minute', 52.5 + g * 0.001, 13.4, 34 + g FROM generate_series(0, 9) g`,
      [idOf(WORKOUT, u), day],
    );
    await sql.query(
      `INSERT INTO workout_track_summaries (workout_id, point_count, distance_meters, min_latitude, max_latitude, min_longitude,
         max_longitude, first_point_at, last_point_at)
       VALUES ($1, 10, 1001.5, 52.5, 52.509, 13.4, 13.4, $2::date + time '07:00', $2::date + time '07:09')`,
      [idOf(WORKOUT, u), day],
    );
    await sql.query(
      `INSERT INTO heartbeat_series (id, user_id, start_date, end_date, beat_count, provider, source_key, dedupe_key)
       VALUES ($1, $2, $3::date + time '08:00', $3::date + time '08:00:04', 5, 'polar', 'polar', 'id:h1')`,
      [idOf(SERIES, u), user, day],
    );
    await sql.query(
      `INSERT INTO rr_intervals (series_id, user_id, timestamp, interval_ms)
       SELECT $1, $2, $3::date + time '08:00' + g * interval '800 ms', 800 + g FROM generate_series(1, 4) g`,
      [idOf(SERIES, u), user, day],
    );
    await sql.query(
      `INSERT INTO hrv_results (series_id, user_id, first_beat_at, last_beat_at, beat_count, rmssd_ms)
       VALUES ($1, $2, $3::date + time '08:00', $3::date + time '08:00:03.2', 5, 1.0)`,
      [idOf(SERIES, u), user, day],
    );
    await sql.query(
      `INSERT INTO ecg_recordings (id, user_id, start_date, end_date, sampling_frequency_hz, sample_count, provider, source_key, dedupe_key)
       VALUES ($1, $2, $3::date + time '09:00', $3::date + time '09:00:30', 512, 3, 'apple_health', 'apple', 'id:e1')`,
      [idOf(ECG, u), user, day],
    );
    await sql.query(`INSERT INTO ecg_voltages (recording_id, microvolts) VALUES ($1, $2)`, [idOf(ECG, u), [10.5, -3, 42 + u]]);
    const { rows } = await sql.query(
      `INSERT INTO connections (user_id, provider, key_source, application_id) VALUES ($1, 'withings', 'instance', 'instance') RETURNING id`,
      [user],
    );
    await sql.query(
      `INSERT INTO sync_runs (connection_id, user_id, provider, trigger, window_start, window_end)
       VALUES ($1, $2, 'withings', 'backfill', '2026-01-01', '2026-02-01')`,
      [rows[0].id, user],
    );
    await sql.query(`INSERT INTO push_subscriptions (connection_id, user_id, provider, external_id) VALUES ($1, $2, 'withings', 'sub-1')`, [
      rows[0].id,
      user,
    ]);
  }
  for (const table of Object.keys(TABLES)) before[table] = await rowsOf(table);
  await applyMigrations(url, upgrade.migrations.slice(0, upgrade.at + 1));
  for (const table of Object.keys(TABLES)) after[table] = await rowsOf(table);
  for (const [table, part] of Object.entries(PARTS)) {
    const { rows } = await sql.query(
      `SELECT count(*)::int AS n FROM "${table}" c JOIN "${part.parent}" p ON p.id = c.${part.key} WHERE c.user_id = p.user_id`,
    );
    withParentsUser[table] = rows[0].n;
  }
  // The reads below run on the latest schema.
  await applyMigrations(url);
  db = createDatabase(url, { max: 2 });
  // Parts a later migration leaves in legacy tables go to where they live now (GROUPED).
  await moveLegacyData(db);
});

afterAll(async () => {
  await sql?.end();
  await db?.$disconnect();
});

describe("the upgrade to keys by user", () => {
  it("keeps every row with its id and values, and gives each part its parent's user", async () => {
    for (const table of Object.keys(TABLES)) {
      const part = PARTS[table];
      expect(after[table]!.map(({ user_id: _user, ...row }) => (part ? row : { user_id: _user, ...row })), table).toEqual(before[table]);
      if (part) expect(withParentsUser[table], table).toBe(before[table]!.length);
    }
  });

  it("answers reads as before", async () => {
    const [user] = users;
    const phases = await listSleepPhases(db, user, idOf(SLEEP, 1), { limit: 10 });
    expect(phases.data.map((p) => [p.id, p.stage])).toEqual(
      before.sleep_phases!.filter((p) => p.session_id === idOf(SLEEP, 1)).map((p) => [Number(p.id), p.stage]),
    );
    const workouts = await listWorkouts(db, user, { view: "all", limit: 10 });
    expect(workouts.data).toEqual([expect.objectContaining({ id: idOf(WORKOUT, 1), route_summary: expect.objectContaining({ point_count: 10 }) })]);
    const route = await listWorkoutRoute(db, user, idOf(WORKOUT, 1), { limit: 100 });
    expect(route.data).toHaveLength(10);
    const rr = await listRrIntervals(db, user, { limit: 10 });
    expect(rr.data.map((r) => r.interval_ms)).toEqual([801, 802, 803, 804]);
    const hrv = await listHrvResults(db, user, { limit: 10 });
    expect(hrv.data.map((h) => h.series_id)).toEqual([idOf(SERIES, 1)]);
    expect((await getEcgRecording(db, user, idOf(ECG, 1))).voltages).toEqual([10.5, -3, 43]);
  });

  it("deletes parts with their parent, and a user's rows with the user only", async () => {
    await sql.query(`DELETE FROM sleep_sessions WHERE id = $1`, [idOf(SLEEP, 1)]);
    expect((await sql.query(`SELECT count(*)::int AS n FROM sleep_phases`)).rows[0].n).toBe(3);
    await sql.query(`DELETE FROM users WHERE id = $1`, [users[0]]);
    for (const table of Object.keys(TABLES)) {
      const now = GROUPED[table] ?? { table, count: "1" };
      const { rows } = await sql.query(
        `SELECT sum(${now.count})::int AS n, (sum(${now.count}) FILTER (WHERE user_id = $1))::int AS mine FROM "${now.table}"`,
        [users[1]],
      );
      expect(rows[0], table).toEqual({ n: rows[0].mine, mine: before[table]!.length / 2 });
    }
  });
});
