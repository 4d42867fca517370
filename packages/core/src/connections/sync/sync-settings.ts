/**
 * The timing rules of sync runs, as data so tests can run the whole ladder in seconds.
 * Production uses DEFAULT_SYNC_SETTINGS.
 */
export interface SyncSettings {
  /** Wait before attempt n+2 after attempt n+1 failed; a run makes `retryDelaysMs.length + 1` attempts. */
  retryDelaysMs: readonly number[];
  /** The wait after a 429 without Retry-After (or a token endpoint's). */
  rateLimitedDefaultMs: number;
  /** Refresh the access token when it expires within this. */
  refreshBeforeExpiryMs: number;
  /** Failed attempts in a row (across runs) that make a connection broken with reason pulls_failing. */
  brokenAfterFailures: number;
  /** A run still waiting on the provider's quota this long after it was queued makes the connection broken (provider_quota). */
  quotaBrokenAfterMs: number;
  /** Windows longer than this are pulled as several runs (backfill chunks), newest first. */
  chunkMs: number;
  /** Share of an application's request quota a backfill may use per window; the rest is kept for routine pulls. */
  backfillQuotaShare: number;
  /** A run whose attempt started longer ago than this and never ended is taken to have died (it no longer delays an erasure). */
  runLeaseMs: number;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const DEFAULT_SYNC_SETTINGS: SyncSettings = {
  retryDelaysMs: [1 * MINUTE, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 6 * HOUR],
  rateLimitedDefaultMs: 1 * MINUTE,
  refreshBeforeExpiryMs: 5 * MINUTE,
  brokenAfterFailures: 3,
  quotaBrokenAfterMs: 1 * HOUR,
  chunkMs: 30 * DAY,
  backfillQuotaShare: 0.5,
  runLeaseMs: 1 * HOUR,
};

/** Attempts a run makes before it fails. */
export function syncAttemptsLimit(settings: SyncSettings): number {
  return settings.retryDelaysMs.length + 1;
}
