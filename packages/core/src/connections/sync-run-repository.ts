import type { DbClient } from "../platform/index.ts";

export type SyncTrigger = "backfill" | "scheduled" | "notification" | "manual";
export type SyncRunStatus = "queued" | "running" | "retrying" | "rate_limited" | "succeeded" | "failed" | "cancelled";

/** Runs that still have work ahead of them. */
export const OPEN_SYNC_RUN_STATUSES = ["queued", "running", "retrying", "rate_limited"] as const;

const syncRunFields = {
  id: true,
  connectionId: true,
  userId: true,
  provider: true,
  trigger: true,
  status: true,
  dataType: true,
  windowStart: true,
  windowEnd: true,
  attempts: true,
  objectsStored: true,
  error: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
  nextAttemptAt: true,
} as const;

export interface SyncRunRow {
  id: bigint;
  connectionId: bigint;
  userId: string;
  provider: string;
  trigger: SyncTrigger;
  status: SyncRunStatus;
  dataType: string | null;
  windowStart: Date;
  windowEnd: Date;
  attempts: number;
  objectsStored: number | null;
  error: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  nextAttemptAt: Date | null;
}

export function insertSyncRun(
  db: DbClient,
  input: { connectionId: bigint; userId: string; provider: string; trigger: SyncTrigger; dataType: string | null; windowStart: Date; windowEnd: Date },
): Promise<SyncRunRow> {
  return db.syncRun.create({ data: { ...input, status: "queued" }, select: syncRunFields });
}

export function findSyncRunById(db: DbClient, id: bigint): Promise<SyncRunRow | null> {
  return db.syncRun.findFirst({ where: { id }, select: syncRunFields });
}

/** One run of the user (null for another user's run). */
export function findUserSyncRun(db: DbClient, userId: string, id: bigint): Promise<SyncRunRow | null> {
  return db.syncRun.findFirst({ where: { id, userId }, select: syncRunFields });
}

/** The user's runs after `afterId`, oldest first (ids grow with creation), one more than `limit`. */
export function listUserSyncRuns(db: DbClient, userId: string, afterId: bigint | null, limit: number): Promise<SyncRunRow[]> {
  return db.syncRun.findMany({
    where: { userId, ...(afterId !== null && { id: { gt: afterId } }) },
    select: syncRunFields,
    orderBy: { id: "asc" },
    take: limit + 1,
  });
}

/** An open run of the connection started by `trigger` (of this data type, when given), oldest first. */
export function findOpenSyncRun(
  db: DbClient,
  connectionId: bigint,
  trigger: SyncTrigger,
  options: { statuses?: readonly SyncRunStatus[]; dataType?: string | null } = {},
): Promise<SyncRunRow | null> {
  return db.syncRun.findFirst({
    where: {
      connectionId,
      trigger,
      status: { in: [...(options.statuses ?? OPEN_SYNC_RUN_STATUSES)] },
      ...(options.dataType !== undefined && { dataType: options.dataType }),
    },
    select: syncRunFields,
    orderBy: { id: "asc" },
  });
}

/** Open runs of the connection (of one trigger when given). */
export function countOpenSyncRuns(db: DbClient, connectionId: bigint, trigger?: SyncTrigger): Promise<number> {
  return db.syncRun.count({ where: { connectionId, status: { in: [...OPEN_SYNC_RUN_STATUSES] }, ...(trigger && { trigger }) } });
}

/**
 * Takes the run for an attempt: queued, retrying or rate_limited (and running, when the
 * attempt is pg-boss's retry of one whose worker died) -> running. Null when another
 * attempt has it or it ended.
 */
export async function claimSyncRun(db: DbClient, id: bigint, takeRunning: boolean, now: Date): Promise<SyncRunRow | null> {
  const statuses: SyncRunStatus[] = ["queued", "retrying", "rate_limited", ...(takeRunning ? (["running"] as const) : [])];
  const { count } = await db.syncRun.updateMany({
    where: { id, status: { in: statuses } },
    data: { status: "running", startedAt: now, finishedAt: null, nextAttemptAt: null },
  });
  return count === 0 ? null : findSyncRunById(db, id);
}

/**
 * Ends the attempt of a running run with its next state. False when the run is no longer
 * running (cancelled by a disconnect meanwhile): its finished_at is then set, the attempt
 * being over.
 */
export async function endRunningSyncRun(
  db: DbClient,
  id: bigint,
  next: {
    status: Exclude<SyncRunStatus, "queued" | "running">;
    attempts?: number;
    objectsStored?: number | null;
    error?: string | null;
    nextAttemptAt?: Date | null;
    finishedAt: Date | null;
  },
): Promise<boolean> {
  const { count } = await db.syncRun.updateMany({ where: { id, status: "running" }, data: next });
  if (count > 0) return true;
  await db.syncRun.updateMany({ where: { id, status: "cancelled", finishedAt: null }, data: { finishedAt: new Date() } });
  return false;
}

/** Ends a run that was never started (not active, provider off...), without an attempt. */
export async function endWaitingSyncRun(db: DbClient, id: bigint, next: { status: "failed" | "cancelled"; error: string }): Promise<boolean> {
  const { count } = await db.syncRun.updateMany({
    where: { id, status: { in: ["queued", "retrying", "rate_limited"] } },
    data: { ...next, nextAttemptAt: null, finishedAt: new Date() },
  });
  return count > 0;
}

/**
 * Every open run of the connection ends cancelled. A running one keeps finished_at null
 * until its attempt notices and ends (an erasure waits for it meanwhile).
 */
export async function cancelOpenRunsOfConnection(db: DbClient, connectionId: bigint, error: string): Promise<number> {
  const now = new Date();
  const waiting = await db.syncRun.updateMany({
    where: { connectionId, status: { in: ["queued", "retrying", "rate_limited"] } },
    data: { status: "cancelled", error, nextAttemptAt: null, finishedAt: now },
  });
  const running = await db.syncRun.updateMany({ where: { connectionId, status: "running" }, data: { status: "cancelled", error } });
  return waiting.count + running.count;
}

/** Every waiting run of the connection but `exceptId` ends failed (the grant was refused: nothing syncs). */
export async function failWaitingRunsOfConnection(db: DbClient, connectionId: bigint, exceptId: bigint, error: string): Promise<number> {
  const { count } = await db.syncRun.updateMany({
    where: { connectionId, id: { not: exceptId }, status: { in: ["queued", "retrying", "rate_limited"] } },
    data: { status: "failed", error, nextAttemptAt: null, finishedAt: new Date() },
  });
  return count;
}

/**
 * Whether an attempt of a pull of the user and provider is under way: running, or cancelled
 * while running and not yet ended, started after `since` (older ones are taken to have died).
 */
export async function pullUnderWay(db: DbClient, userId: string, provider: string, since: Date): Promise<boolean> {
  const run = await db.syncRun.findFirst({
    where: { userId, provider, status: { in: ["running", "cancelled"] }, startedAt: { gt: since }, finishedAt: null },
    select: { id: true },
  });
  return run !== null;
}

/** The connection's runs that are queued or running now (freshness: syncing). */
export function countActiveRunsOfConnections(db: DbClient, connectionIds: readonly bigint[]) {
  return db.syncRun.groupBy({
    by: ["connectionId"],
    where: { connectionId: { in: [...connectionIds] }, status: { in: ["queued", "running"] } },
    _count: { _all: true },
  });
}
