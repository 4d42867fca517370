import { expect } from "vitest";
import { writeQuantitySamples, type QuantitySampleRecord } from "@svc/core";
import type { TestService } from "./test-service.ts";

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
