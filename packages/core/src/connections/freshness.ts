import type { CoreDeps } from "../deps.ts";
import { listUserSyncConnections, type SyncConnectionRow } from "./connection-health-repository.ts";
import { listUploadSources, type UploadSourceRow } from "./freshness-repository.ts";
import { countActiveRunsOfConnections } from "./sync-run-repository.ts";
import { requireActiveUser } from "../identity/index.ts";

export const FRESHNESS_STATES = ["fresh", "stale", "failing", "syncing", "needs_reauth", "disconnected"] as const;
export type FreshnessState = (typeof FRESHNESS_STATES)[number];

/** A device source is stale when nothing was uploaded for this long. */
export const DEVICE_STALE_AFTER_MS = 48 * 60 * 60 * 1000;

/** Freshness of one source of a user (GET /v1/users/{id}/freshness). */
export interface FreshnessDto {
  provider: string;
  kind: "oauth" | "push" | "device";
  state: FreshnessState;
  synced_through: string | null;
  lag_seconds: number | null;
  last_notification_at: string | null;
  next_pull_at: string | null;
  last_error: { message: string; at: string } | null;
}

/**
 * Every source of the user: each connection (any status), then each device provider the
 * user uploaded to. States, first that applies:
 * connection: `disconnected`, `needs_reauth`, `failing` (broken: permission missing, pulls
 * failing, quota spent for long), `syncing` (a run queued or running), `stale` (never
 * synced, or data older than twice the pull interval), else `fresh`;
 * device: `syncing` (an upload arriving or waiting for its ETL), `failing` (the latest upload
 * failed), `stale` (nothing processed for 48 hours), else `fresh`.
 */
export async function getFreshness(
  deps: Pick<CoreDeps, "db" | "providers" | "uploads">,
  tenantId: string,
  userId: string,
): Promise<{ data: FreshnessDto[] }> {
  await requireActiveUser(deps.db, tenantId, userId);
  const now = new Date();
  const connections = await listUserSyncConnections(deps.db, userId);
  const active = await countActiveRunsOfConnections(deps.db, connections.map((connection) => connection.id));
  const syncing = new Set(active.filter((row) => row._count._all > 0).map((row) => row.connectionId));
  const deviceProviders = deps.providers.all().filter((provider) => provider.kind === "device").map((provider) => provider.slug);
  const uploads = await listUploadSources(deps.db, userId, deviceProviders, deps.uploads.lapseMs);
  return {
    data: [
      ...connections.map((connection) => connectionFreshness(deps, connection, syncing.has(connection.id), now)),
      ...uploads.map((source) => uploadFreshness(source, now)),
    ],
  };
}

function connectionFreshness(deps: Pick<CoreDeps, "providers">, connection: SyncConnectionRow, syncing: boolean, now: Date): FreshnessDto {
  const connector = deps.providers.connector(connection.provider);
  const lagMs = connection.syncedThrough ? Math.max(0, now.getTime() - connection.syncedThrough.getTime()) : null;
  const staleAfterMs = 2 * (connector?.pullIntervalMinutes ?? 60) * 60_000;
  const state: FreshnessState =
    connection.status === "disconnected"
      ? "disconnected"
      : connection.status === "needs_reauth"
        ? "needs_reauth"
        : connection.brokenReason !== null
          ? "failing"
          : syncing
            ? "syncing"
            : lagMs === null || lagMs > staleAfterMs
              ? "stale"
              : "fresh";
  return {
    provider: connection.provider,
    kind: connector?.kind ?? "oauth",
    state,
    synced_through: connection.syncedThrough?.toISOString() ?? null,
    lag_seconds: lagMs === null ? null : Math.floor(lagMs / 1000),
    last_notification_at: connection.lastNotificationAt?.toISOString() ?? null,
    next_pull_at: connection.status === "active" ? (connection.nextPullAt?.toISOString() ?? null) : null,
    last_error: connection.lastError && connection.lastErrorAt ? { message: connection.lastError, at: connection.lastErrorAt.toISOString() } : null,
  };
}

function uploadFreshness(source: UploadSourceRow, now: Date): FreshnessDto {
  const lagMs = source.lastProcessedAt ? Math.max(0, now.getTime() - source.lastProcessedAt.getTime()) : null;
  const state: FreshnessState =
    source.inFlight > 0 ? "syncing" : source.latestStatus === "failed" ? "failing" : lagMs === null || lagMs > DEVICE_STALE_AFTER_MS ? "stale" : "fresh";
  return {
    provider: source.provider,
    kind: "device",
    state,
    synced_through: source.lastProcessedAt?.toISOString() ?? null,
    lag_seconds: lagMs === null ? null : Math.floor(lagMs / 1000),
    last_notification_at: null,
    next_pull_at: null,
    last_error: source.lastError && source.lastErrorAt ? { message: source.lastError, at: source.lastErrorAt.toISOString() } : null,
  };
}
