import { encodeCursor } from "@svc/core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { readNewestFirst } from "../src/results/newest-first.ts";
import { capRecords } from "../src/results/read-records.ts";
import { compactRecords, type RecordShape } from "../src/results/record-shape.ts";
import { RESULT_BUDGET_BYTES } from "../src/results/result-budget.ts";
import type { Json, RestPage } from "../src/results/rest-page.ts";
import { HOUR_MS, type RecordWindow } from "../src/results/record-window.ts";

const SAMPLE: RecordShape = {
  schema: z.object({}),
  stream: ["type", "unit", "provider", "source", "device"],
  streamMetadata: ["timezone"],
  dropped: ["id"],
  usual: { metadata: {} },
  instant: { start: "start_date", end: "end_date" },
};

const sample = (i: number, provider: string, extra: Json = {}): Json => ({
  id: i,
  type: "heart_rate",
  unit: "count/min",
  value: 60 + i,
  start_date: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
  end_date: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
  metadata: { timezone: "Europe/Berlin" },
  provider,
  source: provider,
  device: null,
  ingested_at: `2026-01-02T00:00:0${i % 10}.000Z`,
  ...extra,
});

describe("compactRecords", () => {
  it("writes what a stream shares once, and keeps per record only what varies, without nulls", () => {
    const records = [
      sample(0, "garmin", { outranked: [{ provider: "apple_health", source: "apple" }] }),
      sample(1, "apple_health", { end_date: "2026-01-01T00:05:00.000Z", metadata: { timezone: "Europe/Berlin", motion: 2 } }),
      sample(2, "garmin", { outranked: [{ provider: "apple_health", source: "apple" }] }),
    ];
    expect(compactRecords(SAMPLE, records)).toEqual({
      streams: [
        {
          type: "heart_rate",
          unit: "count/min",
          provider: "garmin",
          source: "garmin",
          timezone: "Europe/Berlin",
          last_ingested_at: "2026-01-02T00:00:02.000Z",
          outranked: [{ provider: "apple_health", source: "apple", records: 2 }],
        },
        { type: "heart_rate", unit: "count/min", provider: "apple_health", source: "apple_health", timezone: "Europe/Berlin", last_ingested_at: "2026-01-02T00:00:01.000Z" },
      ],
      records: [
        { stream: 0, value: 60, start_date: "2026-01-01T00:00:00.000Z" },
        { stream: 1, value: 61, start_date: "2026-01-01T00:01:00.000Z", end_date: "2026-01-01T00:05:00.000Z", metadata: { motion: 2 } },
        { stream: 0, value: 62, start_date: "2026-01-01T00:02:00.000Z" },
      ],
    });
  });

  it("names no stream in the records when there is one", () => {
    expect(compactRecords(SAMPLE, [sample(0, "garmin")]).records).toEqual([{ value: 60, start_date: "2026-01-01T00:00:00.000Z" }]);
  });
});

describe("capRecords", () => {
  it("cuts at the size budget and says so", () => {
    const records = Array.from({ length: 5000 }, (_, i) => sample(i, "garmin", { metadata: { timezone: "Europe/Berlin", note: "x".repeat(40) } }));
    const answer = capRecords(SAMPLE, records, {}, "Narrow start and end.");
    expect(Buffer.byteLength(JSON.stringify(answer))).toBeLessThanOrEqual(RESULT_BUDGET_BYTES);
    expect(answer.records.length).toBeGreaterThan(100);
    expect(answer.records.length).toBeLessThan(5000);
    expect(answer).toMatchObject({ truncated: true, next_cursor: null, hint: expect.stringMatching(/size budget .* Narrow start and end\.$/) });
  });
});

describe("readNewestFirst", () => {
  // 3000 samples a minute apart, two at each instant: a REST list over them, oldest first.
  const stored = Array.from({ length: 3000 }, (_, i) => sample(Math.floor(i / 2), i % 2 ? "b" : "a", { id: i }));
  const window: RecordWindow = { key: "start_date", unit: "time", defaultSpanMs: HOUR_MS, defaultSpanText: "the hour", firstStepMs: 100 * 24 * HOUR_MS };
  let reads = 0;
  async function read(args: Json): Promise<RestPage> {
    reads++;
    const from = Date.parse(String(args.start));
    const to = Date.parse(String(args.end));
    const inWindow = stored.filter((record) => Date.parse(String(record.start_date)) >= from && Date.parse(String(record.start_date)) < to);
    const offset = typeof args.cursor === "string" ? Number(args.cursor) : 0;
    const limit = Number(args.limit);
    const data = inWindow.slice(offset, offset + limit);
    return { data, next_cursor: offset + limit < inWindow.length ? String(offset + limit) : null };
  }

  it("pages back through everything, a stretch with more than a page read shorter, instants split across pages", async () => {
    const now = Date.parse(String(stored.at(-1)!.start_date)) + 60_000;
    const seen: Json[] = [];
    let cursor: string | null = null;
    reads = 0;
    do {
      const page = await readNewestFirst(read, { limit: 333, ...(cursor && { cursor }) }, window, 333, now);
      seen.push(...page.records);
      cursor = page.cursorAfter(page.records.length);
    } while (cursor !== null);
    expect(seen.map((record) => record.id)).toEqual(stored.map((record) => record.id).reverse());
    expect(reads).toBeLessThan(100);
  });

  it("continues from a cut page, and refuses a cursor of the other order", async () => {
    const now = Date.parse(String(stored.at(-1)!.start_date)) + 60_000;
    const first = await readNewestFirst(read, { limit: 10 }, window, 10, now);
    const next = await readNewestFirst(read, { limit: 10, cursor: first.cursorAfter(3) }, window, 10, now);
    expect(next.records.map((record) => record.id)).toEqual(first.records.slice(3).map((record) => record.id).concat([2989, 2988, 2987]));
    await expect(readNewestFirst(read, { limit: 10, cursor: encodeCursor({ t: "2026-01-01T00:00:00.000Z", id: "1" }) }, window, 10, now)).rejects.toThrow(/cursor is not valid/);
  });
});
