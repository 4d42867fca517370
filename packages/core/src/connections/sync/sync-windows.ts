import { createHash } from "node:crypto";

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** Overlap of a pull with the data already synced (late provider updates of the last hour). */
export const SYNC_OVERLAP_MS = HOUR_MS;
/** Where a pull of a connection that never synced starts. */
export const NEVER_SYNCED_LOOKBACK_MS = DAY_MS;
/** Sync now's `from` (and any computed start) is at most this far back. */
export const SYNC_NOW_MAX_LOOKBACK_MS = 30 * DAY_MS;
/** A notification that names no window pulls this far back. */
export const NOTIFICATION_LOOKBACK_MS = 2 * DAY_MS;

export interface SyncWindow {
  start: Date;
  end: Date;
}

/** Where routine pulls start: the end of synced data minus the overlap, or a day back when never synced. */
export function incrementalStart(syncedThrough: Date | null, now: Date): Date {
  return syncedThrough ? new Date(syncedThrough.getTime() - SYNC_OVERLAP_MS) : new Date(now.getTime() - NEVER_SYNCED_LOOKBACK_MS);
}

/** A window cut into pieces of at most `chunkMs`, newest first (recent data arrives first). */
export function chunkWindow(window: SyncWindow, chunkMs: number): SyncWindow[] {
  const chunks: SyncWindow[] = [];
  let end = window.end.getTime();
  const start = window.start.getTime();
  do {
    const chunkStart = Math.max(start, end - chunkMs);
    chunks.push({ start: new Date(chunkStart), end: new Date(end) });
    end = chunkStart;
  } while (end > start);
  return chunks;
}

/**
 * The next scheduled pull of a connection after `now`: every `intervalMinutes`, at the
 * connection's own offset within the interval (from a hash of its id), so the pulls of
 * many connections spread evenly over the interval instead of bunching.
 */
export function nextPullTime(connectionId: bigint, intervalMinutes: number, now: Date): Date {
  const intervalMs = Math.max(1, intervalMinutes) * 60 * 1000;
  const offset = Number(createHash("sha256").update(`pull:${connectionId}`).digest().readUInt32BE(0) % intervalMs);
  const slotStart = Math.floor((now.getTime() - offset) / intervalMs) * intervalMs + offset;
  return new Date(slotStart + intervalMs);
}
