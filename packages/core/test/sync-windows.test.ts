import { describe, expect, it } from "vitest";
import { chunkWindow, incrementalStart, nextPullTime } from "../src/connections/sync/sync-windows.ts";
import { DEFAULT_SYNC_SETTINGS, syncAttemptsLimit } from "../src/connections/sync/sync-settings.ts";

const DAY = 86_400_000;
const at = (iso: string) => new Date(iso);

describe("sync windows", () => {
  it("cuts a long window into chunks of at most the chunk size, newest first, covering it exactly", () => {
    const window = { start: at("2025-01-01T00:00:00Z"), end: at("2025-03-17T12:00:00Z") };
    const chunks = chunkWindow(window, 30 * DAY);
    expect(chunks.map((chunk) => [chunk.start.toISOString(), chunk.end.toISOString()])).toEqual([
      ["2025-02-15T12:00:00.000Z", "2025-03-17T12:00:00.000Z"],
      ["2025-01-16T12:00:00.000Z", "2025-02-15T12:00:00.000Z"],
      ["2025-01-01T00:00:00.000Z", "2025-01-16T12:00:00.000Z"],
    ]);
    expect(chunkWindow({ start: at("2025-01-01T00:00:00Z"), end: at("2025-01-02T00:00:00Z") }, 30 * DAY)).toHaveLength(1);
    // An empty window stays one (empty) run.
    expect(chunkWindow({ start: at("2025-01-01T00:00:00Z"), end: at("2025-01-01T00:00:00Z") }, 30 * DAY)).toHaveLength(1);
  });

  it("starts routine pulls an hour before the synced data ends, or a day back", () => {
    const now = at("2025-05-01T12:00:00Z");
    expect(incrementalStart(at("2025-05-01T10:00:00Z"), now).toISOString()).toBe("2025-05-01T09:00:00.000Z");
    expect(incrementalStart(null, now).toISOString()).toBe("2025-04-30T12:00:00.000Z");
  });

  it("places each connection's next pull at its own offset within the interval, after now", () => {
    const now = at("2025-05-01T12:34:56Z");
    const times = Array.from({ length: 50 }, (_, index) => nextPullTime(BigInt(index + 1), 60, now).getTime());
    for (const time of times) {
      expect(time).toBeGreaterThan(now.getTime());
      expect(time).toBeLessThanOrEqual(now.getTime() + 60 * 60_000);
    }
    expect(new Set(times.map((time) => Math.floor(time / 60_000))).size).toBeGreaterThan(30);
    // The same connection keeps its slot: exactly one interval later once that time has come.
    const first = nextPullTime(7n, 60, now);
    expect(nextPullTime(7n, 60, first).getTime()).toBe(first.getTime() + 60 * 60_000);
  });

  it("makes six attempts by default", () => {
    expect(syncAttemptsLimit(DEFAULT_SYNC_SETTINGS)).toBe(6);
  });
});
