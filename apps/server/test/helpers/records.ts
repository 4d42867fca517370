import { expect } from "vitest";
import { writeQuantitySamples, type QuantitySampleRecord } from "@svc/core";
import type { TestService } from "./test-service.ts";
import {
  writeCategorySamples,
  writeSleepSessions,
  writeWorkouts,
  type CategorySampleRecord,
  type SleepSessionRecord,
  type WorkoutRecord,
} from "@svc/core";

/** A new active user of the tenant whose key is given; returns its id. */
export async function createUser(svc: TestService, key: string): Promise<string> {
  const answer = await svc.call("/v1/users", { key, body: {} });
  expect(answer.status).toBe(201);
  return answer.body.id as string;
}

/** Stores samples through the same writer the ETL uses, in one transaction. */
export function writeSamples(svc: TestService, userId: string, provider: string, records: QuantitySampleRecord[]) {
  return svc.db.$transaction((tx) => writeQuantitySamples(tx, { userId, provider }, records));
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

/** Stores category samples through the ETL's writer, in one transaction. */
export function writeCategory(svc: TestService, userId: string, provider: string, records: CategorySampleRecord[]) {
  return svc.db.$transaction((tx) => writeCategorySamples(tx, { userId, provider }, records));
}

/** Stores sleep sessions (with their phases) through the ETL's writer, in one transaction. */
export function writeSleep(svc: TestService, userId: string, provider: string, records: SleepSessionRecord[]) {
  return svc.db.$transaction((tx) => writeSleepSessions(tx, { userId, provider }, records));
}

/** Stores workouts (with their routes) through the ETL's writer, in one transaction. */
export function writeWorkoutRecords(svc: TestService, userId: string, provider: string, records: WorkoutRecord[]) {
  return svc.db.$transaction((tx) => writeWorkouts(tx, { userId, provider }, records));
}

import {
  writeDailySummaries,
  writeEcgRecordings,
  writeHeartbeatSeries,
  writeNutritionLogs,
  type DailySummaryRecord,
  type EcgRecordingRecord,
  type HeartbeatSeriesRecord,
  type NutritionLogRecord,
} from "@svc/core";

/** Stores nutrition logs through the ETL's writer, in one transaction. */
export function writeNutrition(svc: TestService, userId: string, provider: string, records: NutritionLogRecord[]) {
  return svc.db.$transaction((tx) => writeNutritionLogs(tx, { userId, provider }, records));
}

/** Stores provider-sent daily summaries through the ETL's writer, in one transaction. */
export function writeDaily(svc: TestService, userId: string, provider: string, records: DailySummaryRecord[]) {
  return svc.db.$transaction((tx) => writeDailySummaries(tx, { userId, provider }, records));
}

/** Stores heartbeat series (with their RR intervals and HRV) through the ETL's writer, in one transaction. */
export function writeHeartbeats(svc: TestService, userId: string, provider: string, records: HeartbeatSeriesRecord[]) {
  return svc.db.$transaction((tx) => writeHeartbeatSeries(tx, { userId, provider }, records));
}

/** Stores ECG recordings with their voltages through the ETL's writer, in one transaction. */
export function writeEcg(svc: TestService, userId: string, provider: string, records: EcgRecordingRecord[]) {
  return svc.db.$transaction((tx) => writeEcgRecordings(tx, { userId, provider }, records));
}
