import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenantApiKey } from "@svc/core";
import type { JobQueue } from "@svc/jobs";
import type { connectSql } from "@svc/testing";
import { databaseBeforeMigration } from "../helpers/upgrade.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { startTestQueue } from "../helpers/webhooks.ts";

// svc started on a database of the release before the grouped samples (its migrations run at
// start) serves the samples from the legacy table at once; the job data-moves, run by the
// service's own workers, moves them while reads over HTTP keep answering the same.
const TENANT = "3e7a0000-0000-4000-8000-0000000000aa";
const user = "3e7a0000-0000-4000-8000-000000000001";
const SAMPLES = 30_000;

let sql: Awaited<ReturnType<typeof connectSql>>;
let svc: TestService;
let jobs: JobQueue;
let key: string;

beforeAll(async () => {
  const before = await databaseBeforeMigration("quantity_sample_chunks");
  sql = before.sql;
  await sql.query(`INSERT INTO tenants (id, name) VALUES ($1, 'live')`, [TENANT]);
  await sql.query(`INSERT INTO users (id, tenant_id, updated_at) VALUES ($1, $2, now())`, [user, TENANT]);
  // A watch's heart rate every 5 s, as the release before stored it, with its stream.
  await sql.query(
    `INSERT INTO quantity_samples (user_id, type, value, unit, start_date, end_date, metadata, provider, source, source_key, device, on_body, dedupe_key, external_id)
     SELECT $1, 'heart_rate', 50 + g % 60, 'count/min', t, t, '{"timezone":"Europe/Berlin"}', 'apple_health', 'apple', 'apple', 'Watch', true,
       'id:' || upper(md5(g::text)::uuid::text), upper(md5(g::text)::uuid::text)
     FROM generate_series(0, $2::int - 1) g, LATERAL (SELECT timestamptz '2026-01-01T00:00:00Z' + g * interval '5 s' AS t) x`,
    [user, SAMPLES],
  );
  await sql.query(
    `INSERT INTO quantity_sample_streams (user_id, type, provider, source_key, on_body, max_duration_seconds, first_start, last_start)
     SELECT user_id, type, provider, source_key, on_body, 0, min(start_date), max(start_date) FROM quantity_samples GROUP BY 1, 2, 3, 4, 5`,
  );
  svc = await startTestService({}, { databaseUrl: before.url });
  jobs = await startTestQueue(svc);
  key = (await createTenantApiKey(svc.db, TENANT, "live")).api_key;
}, 120_000);

afterAll(async () => {
  await jobs?.stop();
  await svc?.stop();
  await sql?.end();
});

/** Every page of the user's heart rate in a view, through the cursors. */
async function allPages(view: "all" | "merged") {
  const pages: unknown[] = [];
  let cursor: string | undefined;
  do {
    const answer = await svc.call(`/v1/users/${user}/samples?type=heart_rate&view=${view}&limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { key });
    expect(answer.status, answer.text).toBe(200);
    pages.push(answer.body);
    cursor = answer.body.next_cursor ?? undefined;
  } while (cursor);
  return pages;
}

const stats = async () =>
  (await svc.call(`/v1/users/${user}/samples/stats?type=heart_rate&start=2026-01-01&end=2026-01-03&interval=hour&tz=Europe/Berlin`, { key })).body;
const legacyLeft = async () => (await sql.query("SELECT count(*)::int AS n FROM quantity_samples_legacy")).rows[0]!.n as number;

describe("an instance upgraded with samples in the old table", () => {
  it("answers from the legacy table at once, and the same while and after its job moves them", async () => {
    expect(await legacyLeft()).toBe(SAMPLES);
    const pages = await allPages("all");
    expect(pages).toHaveLength(Math.ceil(SAMPLES / 1000));
    const merged = await allPages("merged");
    const hourly = await stats();
    expect(hourly.buckets.reduce((sum: number, b: { count: number }) => sum + b.count, 0)).toBe(SAMPLES);

    await jobs.send("data-moves", {});
    let readsDuringTheMove = 0;
    for (let left = await legacyLeft(); left > 0; left = await legacyLeft()) {
      expect(await allPages("all")).toEqual(pages);
      readsDuringTheMove++;
    }
    expect(readsDuringTheMove).toBeGreaterThan(0);
    expect(await allPages("all")).toEqual(pages);
    expect(await allPages("merged")).toEqual(merged);
    expect(await stats()).toEqual(hourly);
    const { rows } = await sql.query("SELECT coalesce(sum(sample_count), 0)::int AS n FROM quantity_sample_chunks");
    expect(rows[0]!.n).toBe(SAMPLES);
  }, 120_000);
});
