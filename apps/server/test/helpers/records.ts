import { expect } from "vitest";
import {
  writeCategorySamples,
  writeDailySummaries,
  writeEcgRecordings,
  writeHeartbeatSeries,
  writeNutritionLogs,
  writeQuantitySamples,
  writeSleepSessions,
  writeWorkouts,
  type CategorySampleRecord,
  type DailySummaryRecord,
  type EcgRecordingRecord,
  type HeartbeatSeriesRecord,
  type NutritionLogRecord,
  type QuantitySampleRecord,
  type SleepSessionRecord,
  type WorkoutRecord,
} from "@svc/core";
import { startTestService, type CallResult, type TestService } from "./test-service.ts";

/** Test writes can be large (50 000 samples) on a busy 2-core machine: more than Prisma's default 5 s. */
const WRITE_TRANSACTION = { timeout: 120_000, maxWait: 30_000 };

/** The service with two tenants: `key` is the first one's API key, `otherKey` the second one's. */
export async function startWithTwoTenants(): Promise<{ svc: TestService; key: string; otherKey: string }> {
  const svc = await startTestService();
  const key = (await svc.createTenant()).api_key;
  const otherKey = (await svc.createTenant()).api_key;
  return { svc, key, otherKey };
}

/** A new active user of the tenant whose key is given; returns its id. */
export async function createUser(svc: TestService, key: string): Promise<string> {
  const answer = await svc.call("/v1/users", { key, body: {} });
  expect(answer.status).toBe(201);
  return answer.body.id as string;
}

/** Stores samples through the same writer the ETL uses, in one transaction. */
export function writeSamples(svc: TestService, userId: string, provider: string, records: QuantitySampleRecord[]) {
  return svc.db.$transaction((tx) => writeQuantitySamples(tx, { userId, provider }, records), WRITE_TRANSACTION);
}

/**
 * Follows next_cursor from the first page until it is null, checking that every page is
 * at most `limit` long; returns every item in order.
 */
export async function readAllPages<T = any>(svc: TestService, path: string, key: string, limit: number): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 10_000; pages++) {
    const separator = path.includes("?") ? "&" : "?";
    const url = `${path}${separator}limit=${limit}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const answer = await svc.call(url, { key });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.data.length).toBeLessThanOrEqual(limit);
    items.push(...answer.body.data);
    cursor = answer.body.next_cursor;
    if (cursor === null) return items;
  }
  throw new Error("too many pages");
}

export const at = (iso: string) => new Date(iso);
export const minutes = (n: number) => n * 60_000;

/** A user token minted through POST /v1/users/{id}/tokens. */
export async function mintToken(svc: TestService, key: string, userId: string, scopes: string[]): Promise<string> {
  const answer = await svc.call(`/v1/users/${userId}/tokens`, { key, body: { scopes } });
  expect(answer.status).toBe(201);
  return answer.body.token as string;
}

/** A 400 problem whose detail names `field`. */
export function expectBadRequest(answer: CallResult, field: string): void {
  expect(answer.status, answer.text).toBe(400);
  expect(answer.headers.get("content-type")).toContain("application/problem+json");
  expect(answer.body.detail).toContain(field);
}

/**
 * Checks who may read `pathFor(user)`: another tenant's key gets 404, a token of the user
 * with scope read 200, the same token on another user of the tenant 404, a token with
 * scope upload only 403, and a call without a secret 401. Returns the read token's answer.
 */
export async function expectReadAccessRules(
  svc: TestService,
  tenants: { key: string; otherKey: string },
  user: string,
  pathFor: (userId: string) => string,
): Promise<CallResult> {
  const path = pathFor(user);
  expect((await svc.call(path, { key: tenants.otherKey })).status).toBe(404);
  const reader = await mintToken(svc, tenants.key, user, ["read"]);
  const own = await svc.call(path, { key: reader });
  expect(own.status, own.text).toBe(200);
  const otherUser = await createUser(svc, tenants.key);
  expect((await svc.call(pathFor(otherUser), { key: reader })).status).toBe(404);
  const uploader = await mintToken(svc, tenants.key, user, ["upload"]);
  expect((await svc.call(path, { key: uploader })).status).toBe(403);
  expect((await svc.call(path, {})).status).toBe(401);
  return own;
}

/** Stores category samples through the ETL's writer, in one transaction. */
export function writeCategory(svc: TestService, userId: string, provider: string, records: CategorySampleRecord[]) {
  return svc.db.$transaction((tx) => writeCategorySamples(tx, { userId, provider }, records), WRITE_TRANSACTION);
}

/** Stores sleep sessions (with their phases) through the ETL's writer, in one transaction. */
export function writeSleep(svc: TestService, userId: string, provider: string, records: SleepSessionRecord[]) {
  return svc.db.$transaction((tx) => writeSleepSessions(tx, { userId, provider }, records), WRITE_TRANSACTION);
}

/** Stores workouts (with their routes) through the ETL's writer, in one transaction. */
export function writeWorkoutRecords(svc: TestService, userId: string, provider: string, records: WorkoutRecord[]) {
  return svc.db.$transaction((tx) => writeWorkouts(tx, { userId, provider }, records), WRITE_TRANSACTION);
}

/** Stores nutrition logs through the ETL's writer, in one transaction. */
export function writeNutrition(svc: TestService, userId: string, provider: string, records: NutritionLogRecord[]) {
  return svc.db.$transaction((tx) => writeNutritionLogs(tx, { userId, provider }, records), WRITE_TRANSACTION);
}

/** Stores provider-sent daily summaries through the ETL's writer, in one transaction. */
export function writeDaily(svc: TestService, userId: string, provider: string, records: DailySummaryRecord[]) {
  return svc.db.$transaction((tx) => writeDailySummaries(tx, { userId, provider }, records), WRITE_TRANSACTION);
}

/** Stores heartbeat series (with their RR intervals and HRV) through the ETL's writer, in one transaction. */
export function writeHeartbeats(svc: TestService, userId: string, provider: string, records: HeartbeatSeriesRecord[]) {
  return svc.db.$transaction((tx) => writeHeartbeatSeries(tx, { userId, provider }, records), WRITE_TRANSACTION);
}

/** Stores ECG recordings with their voltages through the ETL's writer, in one transaction. */
export function writeEcg(svc: TestService, userId: string, provider: string, records: EcgRecordingRecord[]) {
  return svc.db.$transaction((tx) => writeEcgRecordings(tx, { userId, provider }, records), WRITE_TRANSACTION);
}
