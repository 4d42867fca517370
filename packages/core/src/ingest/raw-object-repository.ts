import type { Prisma } from "@svc/db";
import type { DbClient } from "../platform/index.ts";

const rawObjectFields = {
  id: true,
  userId: true,
  provider: true,
  format: true,
  contentType: true,
  byteSize: true,
  sha256: true,
  storageKey: true,
  status: true,
  uploadKey: true,
  summary: true,
  error: true,
  receivedAt: true,
  processedAt: true,
} as const;

export type RawObjectRow = Prisma.RawObjectGetPayload<{ select: typeof rawObjectFields }>;

export function insertReceivingRawObject(
  db: DbClient,
  input: { id: string; userId: string; provider: string; format: string; contentType: string; storageKey: string },
): Promise<RawObjectRow> {
  return db.rawObject.create({ data: { ...input, status: "receiving" }, select: rawObjectFields });
}

/**
 * The user's uploads in flight: receiving, with a heartbeat within `lapseMs` (one whose process
 * died or whose bytes stopped arriving lapses). `secondsToLapse`: when the first of them lapses
 * if it beats no more (rounded up; null when there is none).
 */
export async function countLiveUploads(db: DbClient, userId: string, lapseMs: number): Promise<{ count: number; secondsToLapse: number | null }> {
  const [row] = await db.$queryRaw<Array<{ count: number; secondsToLapse: number | null }>>`
    SELECT count(*)::int AS count,
           ceil(extract(epoch FROM min(heartbeat_at) + ${lapseMs} * interval '1 millisecond' - now()))::int AS "secondsToLapse"
    FROM raw_objects
    WHERE user_id = ${userId}::uuid AND status = 'receiving' AND heartbeat_at > now() - ${lapseMs} * interval '1 millisecond'`;
  return row!;
}

/** Records that the upload's process is alive; false when the upload is no longer receiving (committed, or dropped by the sweep). */
export async function beatReceivingUpload(db: DbClient, id: string): Promise<boolean> {
  const updated = await db.$executeRaw`
    UPDATE raw_objects SET heartbeat_at = now() WHERE id = ${id}::uuid AND status = 'receiving' AND heartbeat_at IS NOT NULL`;
  return updated === 1;
}

export function findRawObject(db: DbClient, id: string): Promise<RawObjectRow | null> {
  return db.rawObject.findFirst({ where: { id }, select: rawObjectFields });
}

/**
 * An upload (a raw object of one of the upload `providers`) of an active user of the tenant,
 * of `userId` alone when given; null otherwise, also for an upload being dropped (nothing of
 * it is kept).
 */
export function findUploadOfTenant(
  db: DbClient,
  where: { id: string; tenantId: string; userId: string | undefined; providers: readonly string[] },
): Promise<RawObjectRow | null> {
  return db.rawObject.findFirst({
    where: {
      id: where.id,
      ...(where.userId !== undefined && { userId: where.userId }),
      provider: { in: [...where.providers] },
      user: { tenantId: where.tenantId, status: "active" },
      NOT: { status: "receiving", heartbeatAt: null },
    },
    select: rawObjectFields,
  });
}

export function findRawObjectByUploadKey(db: DbClient, userId: string, provider: string, uploadKey: string): Promise<RawObjectRow | null> {
  return db.rawObject.findUnique({ where: { userId_provider_uploadKey: { userId, provider, uploadKey } }, select: rawObjectFields });
}

/** Turns a receiving upload pending; null when it is no longer receiving (dropped by the sweep meanwhile). */
export async function markRawObjectStored(
  db: DbClient,
  id: string,
  input: { byteSize: number; sha256: string; uploadKey: string },
): Promise<RawObjectRow | null> {
  const { count } = await db.rawObject.updateMany({
    where: { id, status: "receiving", heartbeatAt: { not: null } },
    data: { byteSize: BigInt(input.byteSize), sha256: input.sha256, uploadKey: input.uploadKey, status: "pending" },
  });
  return count === 1 ? db.rawObject.findFirstOrThrow({ where: { id }, select: rawObjectFields }) : null;
}

export function markRawObjectProcessed(db: DbClient, id: string, summary: Prisma.InputJsonValue) {
  return db.rawObject.updateMany({ where: { id }, data: { status: "processed", summary, error: null, processedAt: new Date() } });
}

export function markRawObjectFailed(db: DbClient, id: string, error: string) {
  return db.rawObject.updateMany({ where: { id }, data: { status: "failed", error, processedAt: new Date() } });
}

/**
 * Marks a receiving upload as being dropped (heartbeat null): from now on no heartbeat revives it
 * and no commit keeps it. `gone` when its row no longer exists, `kept` when it was committed.
 */
export async function markUploadDropped(db: DbClient, id: string): Promise<"dropped" | "gone" | "kept"> {
  const updated = await db.$executeRaw`
    UPDATE raw_objects SET heartbeat_at = NULL WHERE id = ${id}::uuid AND status = 'receiving'`;
  if (updated === 1) return "dropped";
  const row = await db.rawObject.findFirst({ where: { id }, select: { id: true } });
  return row ? "kept" : "gone";
}

/** Marks the receiving uploads whose last heartbeat is older than `lapsedMs` as being dropped. */
export function markLapsedUploadsDropped(db: DbClient, lapsedMs: number): Promise<number> {
  return db.$executeRaw`
    UPDATE raw_objects SET heartbeat_at = NULL
    WHERE status = 'receiving' AND heartbeat_at < now() - ${lapsedMs} * interval '1 millisecond'`;
}

/** Uploads being dropped (their bytes and row still to delete), oldest first. */
export function findDroppedUploads(db: DbClient, limit: number): Promise<Array<{ id: string; storageKey: string }>> {
  return db.rawObject.findMany({
    where: { status: "receiving", heartbeatAt: null },
    select: { id: true, storageKey: true },
    orderBy: { receivedAt: "asc" },
    take: limit,
  });
}

/** Deletes the row of an upload being dropped, once its bytes are gone. */
export function deleteDroppedUpload(db: DbClient, id: string) {
  return db.rawObject.deleteMany({ where: { id, status: "receiving", heartbeatAt: null } });
}

/** The user's raw objects still pending that were received before `raw`, oldest first. */
export function findOlderPendingRawObjects(db: DbClient, raw: { id: string; userId: string; receivedAt: Date }): Promise<RawObjectRow[]> {
  return db.rawObject.findMany({
    where: {
      userId: raw.userId,
      status: "pending",
      OR: [{ receivedAt: { lt: raw.receivedAt } }, { receivedAt: raw.receivedAt, id: { lt: raw.id } }],
    },
    orderBy: [{ receivedAt: "asc" }, { id: "asc" }],
    select: rawObjectFields,
  });
}

/** Takes the user's ETL lock until the transaction ends: one ETL of a user's raw objects at a time. */
export async function lockUserEtl(db: DbClient, userId: string): Promise<void> {
  await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`etl:${userId}`}, 0))`;
}

/** Locks the raw object's row until the transaction ends (one ETL of it at a time); its status, null when it is gone. */
export async function lockRawObject(db: DbClient, id: string): Promise<RawObjectRow["status"] | null> {
  const rows = await db.$queryRaw<Array<{ status: RawObjectRow["status"] }>>`
    SELECT status FROM raw_objects WHERE id = ${id}::uuid FOR UPDATE`;
  return rows[0]?.status ?? null;
}

/**
 * Raw objects pending since before `receivedBefore` that no ETL job waits for or runs: no
 * job of pg-boss's `etl-raw-object` queue names them in state created, retry or active. Reads
 * pg-boss's own job table (its `data` is the catalog's payload), as its findJobs does.
 */
export function findPendingRawObjectsWithoutJob(db: DbClient, receivedBefore: Date, limit: number): Promise<Array<{ id: string; userId: string }>> {
  return db.$queryRaw<Array<{ id: string; userId: string }>>`
    SELECT r.id::text AS id, r.user_id::text AS "userId"
    FROM raw_objects r
    WHERE r.status = 'pending' AND r.received_at < ${receivedBefore}
      AND NOT EXISTS (
        SELECT 1 FROM pgboss.job j
        WHERE j.name = 'etl-raw-object' AND j.data->>'raw_object_id' = r.id::text AND j.state IN ('created', 'retry', 'active'))
    ORDER BY r.received_at
    LIMIT ${limit}`;
}
