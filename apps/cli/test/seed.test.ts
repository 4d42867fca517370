import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import { createTenant, createUser, listSamples, type RecordView } from "@svc/core";
import { createDatabase, type Database } from "@svc/db";
import { createTestDatabase } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isRunDay, profileOf } from "../src/seed/person.ts";
import { daysBefore } from "../src/seed/time.ts";

const run = promisify(execFile);
const main = path.resolve(import.meta.dirname, "../src/main.ts");

function svc(args: string[], env: Record<string, string>) {
  return run(process.execPath, [main, ...args], { env: { PATH: process.env.PATH, ...env }, timeout: 120_000 });
}

/** Every sample of a type in a view, following the pages. */
async function countSamples(db: Database, userId: string, type: string, view: RecordView): Promise<number> {
  let count = 0;
  let cursor: string | undefined;
  for (;;) {
    const page = await listSamples(db, userId, { type, view, limit: 5000, cursor });
    count += page.data.length;
    if (page.next_cursor === null) return count;
    cursor = page.next_cursor;
  }
}

/** Route points (stored in chunks) of the user's workouts matching `where`. */
async function routePointCount(db: Database, where: { userId: string; workoutId?: string }): Promise<number> {
  return (await db.workoutRouteChunk.aggregate({ where, _sum: { pointCount: true } }))._sum.pointCount ?? 0;
}

/** Rows of the user in every table the seed writes. */
async function rowCounts(db: Database, userId: string) {
  const where = { userId };
  return {
    quantity: await db.quantitySample.count({ where }),
    category: await db.categorySample.count({ where }),
    sleep: await db.sleepSession.count({ where }),
    phases: await db.sleepPhase.count({ where: { session: { userId } } }),
    workouts: await db.workout.count({ where }),
    routePoints: await routePointCount(db, { userId }),
    nutrition: await db.nutritionLog.count({ where }),
    daily: await db.dailySummary.count({ where }),
    heartbeats: await db.heartbeatSeries.count({ where }),
    ecg: await db.ecgRecording.count({ where }),
    rejected: await db.rejectedRecord.count({ where }),
  };
}

const SEED = ["--days", "2", "--heart-rate-every", "60"];

describe("svc dev seed", () => {
  let databaseUrl: string;
  let db: Database;
  let tenantId: string;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase();
    db = createDatabase(databaseUrl, { max: 2 });
    tenantId = (await createTenant(db, "seed")).tenant_id;
  });

  afterAll(async () => {
    await db?.$disconnect();
  });

  it("writes multi-source data that the merged view dedupes, and a second run writes nothing new", async () => {
    // The seed runs three times a week; pick a user whose profile runs in the two seeded days.
    const days = daysBefore(new Date(), 2);
    let userId = "";
    for (let tries = 0; tries < 50 && !userId; tries++) {
      const user = await createUser(db, tenantId, undefined);
      if (days.some((day) => isRunDay(profileOf(user.id), day))) userId = user.id;
    }
    expect(userId).not.toBe("");

    const first = await svc(["dev", "seed", "--user", userId, ...SEED], { DATABASE_URL: databaseUrl });
    expect(first.stdout).toMatch(/day 2\/2 \(\d{4}-\d{2}-\d{2}\)/);
    expect(first.stdout).toMatch(/written: quantity_samples=[1-9]\d* category_samples=\d+ sleep_sessions=4 workouts=[12] /);
    expect(first.stdout).toMatch(/rejected: 0$/m);

    const stepSources = await db.quantitySample.groupBy({ by: ["provider", "source", "device", "onBody"], where: { userId, type: "step_count" } });
    expect(stepSources.length).toBeGreaterThanOrEqual(2);
    const heartSources = await db.quantitySample.groupBy({ by: ["provider", "source", "device"], where: { userId, type: "heart_rate" } });
    expect(heartSources.map((s) => s.provider).sort()).toEqual(["apple_health", "garmin"]);
    const sleepProviders = await db.sleepSession.groupBy({ by: ["provider"], where: { userId } });
    expect(sleepProviders.map((s) => s.provider).sort()).toEqual(["apple_health", "oura"]);
    const sleepPhases = await db.sleepPhase.count({ where: { session: { userId } } });
    expect(sleepPhases).toBeGreaterThan(20);

    const workout = await db.workout.findFirstOrThrow({ where: { userId, provider: "garmin" } });
    expect(workout.activityType).toBe("running");
    expect(await routePointCount(db, { userId, workoutId: workout.id })).toBeGreaterThan(100);

    const daily = await db.dailySummary.findMany({ where: { userId }, select: { provider: true, derived: true } });
    expect(daily.filter((d) => d.provider === "garmin" && !d.derived)).toHaveLength(2);
    expect(daily.some((d) => d.provider === "apple_health" && d.derived)).toBe(true);

    for (const type of ["step_count", "heart_rate", "resting_heart_rate"]) {
      const all = await countSamples(db, userId, type, "all");
      const merged = await countSamples(db, userId, type, "merged");
      expect(merged, type).toBeGreaterThan(0);
      expect(merged, type).toBeLessThan(all);
    }

    const before = await rowCounts(db, userId);
    expect(before.rejected).toBe(0);
    expect(before.nutrition).toBeGreaterThanOrEqual(6);
    expect(before.heartbeats).toBe(2);

    const second = await svc(["dev", "seed", "--user", userId, ...SEED], { DATABASE_URL: databaseUrl });
    expect(second.stdout).toMatch(
      /written: quantity_samples=0 category_samples=0 sleep_sessions=0 workouts=0 nutrition_logs=0 daily_summaries=0 heartbeat_series=0 ecg_recordings=0; unchanged: [1-9]\d*; rejected: 0/,
    );
    expect(await rowCounts(db, userId)).toEqual(before);
  }, 240_000);

  it("exits 1 with a clear message for an unknown user or one being deleted", async () => {
    const unknown = randomUUID();
    await expect(svc(["dev", "seed", "--user", unknown, ...SEED], { DATABASE_URL: databaseUrl })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining(`No active user ${unknown}`),
    });

    const deleting = await createUser(db, tenantId, undefined);
    await db.user.update({ where: { id: deleting.id }, data: { status: "deleting" } });
    await expect(svc(["dev", "seed", "--user", deleting.id, ...SEED], { DATABASE_URL: databaseUrl })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("does not exist or is being deleted"),
    });
    expect(await db.quantitySample.count({ where: { userId: deleting.id } })).toBe(0);
  }, 120_000);

  it("refuses a user id that is not a uuid and days out of range", async () => {
    await expect(svc(["dev", "seed", "--user", "nope"], { DATABASE_URL: databaseUrl })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("--user"),
    });
    await expect(svc(["dev", "seed", "--user", randomUUID(), "--days", "0"], { DATABASE_URL: databaseUrl })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining("--days"),
    });
  });
});
