import { z } from "zod";
import type { CoreDeps } from "../deps.ts";
import { AppError, type DbClient, decodeCursor, encodeCursor, type Page } from "../platform/index.ts";
import type { NotifiedPull, PushedPayload } from "./providers/connector.ts";
import {
  findActiveConnectionsOfProviderUser,
  findSyncConnection,
  findUserSyncConnection,
  lockSyncConnection,
  setLastNotificationAt,
  type SyncConnectionRow,
} from "./connection-health-repository.ts";
import {
  cancelOpenRunsOfConnection,
  findOpenSyncRun,
  findUserSyncRun,
  insertSyncRun,
  listUserSyncRuns,
  pullUnderWay,
  type SyncRunRow,
  type SyncTrigger,
} from "./sync-run-repository.ts";
import { sendPullJob } from "./sync/pull-jobs.ts";
import {
  chunkWindow,
  incrementalStart,
  NOTIFICATION_LOOKBACK_MS,
  SYNC_NOW_MAX_LOOKBACK_MS,
  type SyncWindow,
} from "./sync/sync-windows.ts";
import { storeRawPayload } from "../ingest/index.ts";
import { requireActiveUser } from "../identity/index.ts";

/** A sync run as the API shows it (the spec's Sync run resource). */
export interface SyncRunDto {
  id: number;
  provider: string;
  trigger: SyncTrigger;
  status: SyncRunRow["status"];
  data_type: string | null;
  window_start: string;
  window_end: string;
  attempts: number;
  objects_stored: number | null;
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  next_attempt_at: string | null;
}

// Run ids are bigint in the database and integers in the API; they stay below 2^53.
export const toSyncRunDto = (row: SyncRunRow): SyncRunDto => ({
  id: Number(row.id),
  provider: row.provider,
  trigger: row.trigger,
  status: row.status,
  data_type: row.dataType,
  window_start: row.windowStart.toISOString(),
  window_end: row.windowEnd.toISOString(),
  attempts: row.attempts,
  objects_stored: row.objectsStored,
  error: row.error,
  created_at: row.createdAt.toISOString(),
  started_at: row.startedAt?.toISOString() ?? null,
  finished_at: row.finishedAt?.toISOString() ?? null,
  next_attempt_at: row.nextAttemptAt?.toISOString() ?? null,
});

export interface QueueSyncRunInput {
  connectionId: bigint;
  userId: string;
  provider: string;
  trigger: SyncTrigger;
  windowStart: Date;
  windowEnd: Date;
  dataType?: string | null;
}

/**
 * Queues a pull of the connection over the window and sends its job, in the caller's
 * transaction. A window longer than the settings' chunk (a backfill of a year) becomes
 * several runs of at most one chunk each, newest first; the answer is the newest one.
 */
export async function queueSyncRun(deps: Pick<CoreDeps, "jobs" | "sync">, tx: DbClient, input: QueueSyncRunInput): Promise<SyncRunRow> {
  const connection = await findSyncConnection(tx, input.connectionId);
  if (!connection) throw new Error(`No connection ${input.connectionId} to queue a sync run of.`);
  const window = { start: input.windowStart, end: input.windowEnd };
  const chunks = input.trigger === "manual" ? [window] : chunkWindow(window, deps.sync.chunkMs);
  let newest: SyncRunRow | null = null;
  for (const chunk of chunks) {
    const run = await insertSyncRun(tx, {
      connectionId: input.connectionId,
      userId: input.userId,
      provider: input.provider,
      trigger: input.trigger,
      dataType: input.dataType ?? null,
      windowStart: chunk.start,
      windowEnd: chunk.end,
    });
    await sendPullJob(deps, tx, run, connection.applicationId);
    newest ??= run;
  }
  return newest!;
}

/**
 * The connection was disconnected: its queued, running, retrying and rate_limited runs end
 * cancelled (a running attempt notices when it ends). Answers how many.
 */
export function cancelOpenSyncRuns(tx: DbClient, connectionId: bigint): Promise<number> {
  return cancelOpenRunsOfConnection(tx, connectionId, "The connection was disconnected.");
}

/**
 * POST /v1/users/{id}/connections/{provider}/sync: a pull ahead of routine work. The window
 * ends now and starts where the connection's data ends minus an hour (a day back when it
 * never synced; never more than 30 days back), or at `from` (at most 30 days back, else 400).
 * While a manual run of the connection is open (queued, running, retrying, rate_limited),
 * that run is the answer (`created: false`) and nothing is queued. 404 without a
 * connection; 409 when it does not sync (needs_reauth, disconnected), or the provider does
 * not run for the tenant (off for it, or not enabled on the instance).
 */
export async function requestManualSync(
  deps: Pick<CoreDeps, "db" | "jobs" | "sync" | "providers" | "providerConfig">,
  tenantId: string,
  userId: string,
  provider: string,
  options: { from?: Date },
): Promise<{ run: SyncRunDto; created: boolean }> {
  await requireActiveUser(deps.db, tenantId, userId);
  const connector = deps.providers.connector(provider);
  const found = connector ? await findUserSyncConnection(deps.db, userId, provider) : null;
  if (!connector || !found) throw new AppError("not_found", `The user has no ${provider} connection.`);
  const now = new Date();
  if (options.from && options.from.getTime() < now.getTime() - SYNC_NOW_MAX_LOOKBACK_MS) {
    throw new AppError("bad_request", "from is more than 30 days back.");
  }
  if (options.from && options.from.getTime() >= now.getTime()) throw new AppError("bad_request", "from is not in the past.");
  if (found.status !== "active") {
    const why = found.status === "disconnected" ? "is disconnected" : "needs the user's reauth (reconnect)";
    throw new AppError("conflict", `The ${provider} connection ${why}; it does not sync.`);
  }
  const availability = await deps.providerConfig.availability(tenantId, connector);
  if (!availability.enabled) throw new AppError("conflict", `The provider ${provider} is switched off for this tenant.`);
  if (!availability.available) throw new AppError("conflict", `The provider ${provider} is not enabled on this instance.`);

  return deps.db.$transaction(async (tx) => {
    // Two calls at once: the second waits here and finds the first one's run.
    const connection = await lockSyncConnection(tx, found.id);
    if (!connection || connection.status !== "active") throw new AppError("conflict", `The ${provider} connection does not sync.`);
    const open = await findOpenSyncRun(tx, connection.id, "manual");
    if (open) return { run: toSyncRunDto(open), created: false };
    const earliest = now.getTime() - SYNC_NOW_MAX_LOOKBACK_MS;
    const start = options.from ?? new Date(Math.max(earliest, incrementalStart(connection.syncedThrough, now).getTime()));
    const run = await queueSyncRun(deps, tx, {
      connectionId: connection.id,
      userId,
      provider,
      trigger: "manual",
      windowStart: start,
      windowEnd: now,
    });
    return { run: toSyncRunDto(run), created: true };
  });
}

const SyncRunCursor = z.object({ id: z.string().regex(/^[0-9]{1,19}$/) }).strict();

/** GET /v1/users/{id}/sync-runs: the user's runs, oldest first. */
export async function listSyncRuns(
  db: DbClient,
  tenantId: string,
  userId: string,
  page: { cursor?: string | undefined; limit: number },
): Promise<Page<SyncRunDto>> {
  await requireActiveUser(db, tenantId, userId);
  const after = page.cursor ? BigInt(decodeCursor(page.cursor, SyncRunCursor).id) : null;
  const rows = await listUserSyncRuns(db, userId, after, page.limit);
  const pageRows = rows.slice(0, page.limit);
  const last = pageRows.at(-1);
  return {
    data: pageRows.map(toSyncRunDto),
    next_cursor: rows.length > page.limit && last ? encodeCursor({ id: last.id.toString() }) : null,
  };
}

/** GET /v1/users/{id}/sync-runs/{run_id}: 404 for a run of another user (or tenant). */
export async function getSyncRun(db: DbClient, tenantId: string, userId: string, runId: number): Promise<SyncRunDto> {
  await requireActiveUser(db, tenantId, userId);
  const run = await findUserSyncRun(db, userId, BigInt(runId));
  if (!run) throw new AppError("not_found", "No such sync run of the user.");
  return toSyncRunDto(run);
}

/**
 * Pulls asked for by a provider's notifications (ping/pull: the notification's body is never
 * taken as data). For each, every active connection of that provider user whose provider
 * runs for its tenant gets last_notification_at and a `notification` run over the window the
 * connector named (else the last 48 hours); a notification run of the same data type still
 * queued already covers it.
 */
export async function queueNotifiedPulls(
  deps: Pick<CoreDeps, "db" | "jobs" | "sync" | "providers" | "providerConfig">,
  provider: string,
  pulls: readonly NotifiedPull[],
): Promise<void> {
  const connector = deps.providers.connector(provider);
  if (!connector) return;
  for (const pull of pulls) {
    const now = new Date();
    const connections = await runnableConnectionsOf(deps, provider, pull.providerUserId);
    if (connections.length === 0) continue;
    const window: SyncWindow = pull.window ?? { start: new Date(now.getTime() - NOTIFICATION_LOOKBACK_MS), end: now };
    await deps.db.$transaction(async (tx) => {
      await setLastNotificationAt(tx, connections.map((connection) => connection.id), now);
      for (const connection of connections) {
        const waiting = await findOpenSyncRun(tx, connection.id, "notification", { statuses: ["queued"], dataType: pull.dataType });
        if (waiting) continue;
        await queueSyncRun(deps, tx, {
          connectionId: connection.id,
          userId: connection.userId,
          provider,
          trigger: "notification",
          windowStart: window.start,
          windowEnd: window.end,
          dataType: pull.dataType,
        });
      }
    });
  }
}

/**
 * Payloads a push provider delivered in the notification itself: stored as raw objects of
 * every active connection of that provider user whose provider runs for its tenant (the ETL
 * parses them like pulled ones). The same bytes stored before are not stored again.
 */
export async function storePushedPayloads(
  deps: Pick<CoreDeps, "db" | "jobs" | "rawStore" | "uploads" | "providers" | "providerConfig">,
  provider: string,
  payloads: readonly PushedPayload[],
  applicationId: string,
): Promise<void> {
  const connector = deps.providers.connector(provider);
  if (!connector) return;
  for (const pushed of payloads) {
    if (!connector.parsers[pushed.format]) continue;
    const connections = await runnableConnectionsOf(deps, provider, pushed.providerUserId, applicationId);
    if (connections.length === 0) continue;
    await setLastNotificationAt(deps.db, connections.map((connection) => connection.id), new Date());
    const body = Buffer.from(JSON.stringify(pushed.payload));
    for (const connection of connections) {
      try {
        await storeRawPayload(deps, { userId: connection.userId, provider, format: pushed.format, contentType: "application/json" }, body);
      } catch (error) {
        // A user being deleted, or an erasure of this provider's data running: nothing kept.
        if (!(error instanceof AppError)) throw error;
      }
    }
  }
}

/** Active connections of the provider user whose provider runs (switch on, keys working) for their tenant. */
async function runnableConnectionsOf(
  deps: Pick<CoreDeps, "db" | "providers" | "providerConfig">,
  provider: string,
  providerUserId: string,
  applicationId?: string,
): Promise<SyncConnectionRow[]> {
  const connector = deps.providers.connector(provider);
  if (!connector) return [];
  const connections = await findActiveConnectionsOfProviderUser(deps.db, provider, providerUserId, applicationId);
  const runnable: SyncConnectionRow[] = [];
  for (const connection of connections) {
    const availability = await deps.providerConfig.availability(connection.user.tenantId, connector);
    if (availability.available) runnable.push(connection);
  }
  return runnable;
}

/** How long an erasure waits before it looks again at a pull under way. */
export const ERASURE_PULL_WAIT_MS = 5_000;

/**
 * Whether an attempt of a pull of the user's provider is under way (also one cancelled by a
 * disconnect that has not noticed yet): a provider erasure waits for it. An attempt that
 * started longer ago than the run lease is taken to have died.
 */
export function pullOfProviderUnderWay(deps: Pick<CoreDeps, "db" | "sync">, userId: string, provider: string): Promise<boolean> {
  return pullUnderWay(deps.db, userId, provider, new Date(Date.now() - deps.sync.runLeaseMs));
}
