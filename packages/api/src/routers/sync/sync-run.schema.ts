import { z } from "zod";
import { FRESHNESS_STATES } from "@svc/core";
import { ZDateTime, ZId, ZIntegerPathId } from "../../schemas/common.ts";

/** Path of one user's connection of a provider. */
export const ZConnectionPath = {
  id: ZId("user"),
  provider: z.string().min(1).max(64).describe("The provider's slug, as GET /v1/providers lists it."),
};

/** Path of one sync run: `/v1/users/{id}/sync-runs/{run_id}`. */
export const ZSyncRunPath = {
  id: ZId("user"),
  run_id: ZIntegerPathId("sync run"),
};

export const ZSyncRun = z
  .object({
    id: z.number().int().describe("The run's id (int64)."),
    provider: z.string(),
    trigger: z
      .enum(["backfill", "scheduled", "notification", "manual"])
      .describe("backfill: the initial pull after connecting (long windows in chunks of 30 days); scheduled: routine pull; notification: the provider notified new data; manual: sync now."),
    status: z
      .enum(["queued", "running", "retrying", "rate_limited", "succeeded", "failed", "cancelled"])
      .describe(
        "queued -> running -> succeeded; a failed attempt -> retrying (after 1 min, 5 min, 30 min, 2 h, 6 h: 6 attempts) or failed; the provider asked to wait -> rate_limited (not a failed attempt); grant refused -> failed; connection disconnected or provider switched off for the tenant while queued -> cancelled.",
      ),
    data_type: z.string().nullable().describe("The one provider data type a notification named; null pulls every type."),
    window_start: ZDateTime.describe("Pulled window, half open: data starting at or after this ..."),
    window_end: ZDateTime.describe("... and before this."),
    attempts: z.number().int().describe("Failed attempts so far (waiting on the provider's quota does not count)."),
    objects_stored: z.number().int().nullable().describe("Raw provider payloads stored by the run (a payload identical to one stored before is not stored again); null until an attempt ended."),
    error: z.string().nullable().describe("The provider's error (or why the run ended without reaching it), in svc's words; never a health value."),
    created_at: ZDateTime,
    started_at: ZDateTime.nullable().describe("Start of the latest attempt."),
    finished_at: ZDateTime.nullable(),
    next_attempt_at: ZDateTime.nullable().describe("When retrying or rate_limited: the next attempt."),
  })
  .describe("One pull of a connection's data over a window (the sync log).");

export const ZFreshness = z.object({
  provider: z.string(),
  kind: z.enum(["oauth", "push", "device"]),
  state: z
    .enum(FRESHNESS_STATES)
    .describe(
      "The first that applies. A connection: disconnected; needs_reauth; failing (broken: a permission missing, pulls failing, the provider's quota spent for long); syncing (a run queued or running); stale (never synced, or synced_through older than twice the provider's pull interval); fresh. A device source: syncing (an upload arriving or waiting to be processed); failing (the latest upload failed); stale (nothing processed for 48 hours); fresh.",
    ),
  synced_through: ZDateTime.nullable().describe("A connection: data is complete up to here (end of the last window pulled without error). A device source: when the latest processed upload arrived. Null: never."),
  lag_seconds: z.number().int().nullable().describe("Seconds from synced_through to now; null when never synced."),
  last_notification_at: ZDateTime.nullable().describe("The provider's last notification about this user (push providers); null otherwise."),
  next_pull_at: ZDateTime.nullable().describe("The next scheduled pull of an active connection; null for device sources and connections that do not sync."),
  last_error: z
    .object({ message: z.string().describe("In svc's words; never a health value."), at: ZDateTime })
    .nullable()
    .describe("The last error of a pull (or of an upload's processing), kept after later successes; null when there never was one."),
});
