import { Prisma } from "@svc/db";
import type { DbClient } from "../platform/index.ts";

/*
 * Counts of one tenant's pipeline. Every query starts from an index (the tenant's users, the
 * status indexes of open work, the endpoint of deliveries) and reads no record value.
 */

export async function countUsersByStatus(db: DbClient, tenantId: string): Promise<{ active: number; deleting: number }> {
  const groups = await db.user.groupBy({ by: ["status"], where: { tenantId }, _count: { _all: true } });
  const countOf = (status: string) => groups.find((group) => group.status === status)?._count._all ?? 0;
  return { active: countOf("active"), deleting: countOf("deleting") };
}

export interface ConnectionCountRow {
  provider: string;
  status: "active" | "needs_reauth" | "disconnected";
  count: number;
  broken: number;
}

/** The tenant's connections per provider and status; broken: not disconnected and with a stored broken reason. */
export function countConnectionsByProvider(db: DbClient, tenantId: string): Promise<ConnectionCountRow[]> {
  return db.$queryRaw<ConnectionCountRow[]>`
    SELECT c.provider, c.status::text AS status, count(*)::int AS count,
           (count(*) FILTER (WHERE c.status <> 'disconnected' AND c.broken_reason IS NOT NULL))::int AS broken
    FROM connections c JOIN users u ON u.id = c.user_id
    WHERE u.tenant_id = ${tenantId}::uuid
    GROUP BY c.provider, c.status`;
}

/** Per provider, the latest pause of an application the tenant's connections use (provider quotas), when still ahead. */
export function findPausedApplications(db: DbClient, tenantId: string, now: Date): Promise<Array<{ provider: string; paused_until: Date }>> {
  return db.$queryRaw<Array<{ provider: string; paused_until: Date }>>`
    SELECT q.provider, max(q.paused_until) AS paused_until
    FROM provider_quotas q
    JOIN (
      SELECT DISTINCT c.provider, 'app:' || c.application_id AS bucket
      FROM connections c JOIN users u ON u.id = c.user_id
      WHERE u.tenant_id = ${tenantId}::uuid
    ) used ON used.provider = q.provider AND used.bucket = q.bucket
    WHERE q.paused_until > ${now}
    GROUP BY q.provider`;
}

export interface SyncRunCounts {
  queued: number;
  running: number;
  retrying: number;
  rate_limited: number;
  failed_24h: number;
  succeeded_24h: number;
}

/** Open runs by status, and runs that ended failed or succeeded since `since`. */
export async function countSyncRuns(db: DbClient, tenantId: string, since: Date): Promise<SyncRunCounts> {
  const [counts] = await db.$queryRaw<SyncRunCounts[]>`
    SELECT (count(*) FILTER (WHERE r.status = 'queued'))::int AS queued,
           (count(*) FILTER (WHERE r.status = 'running'))::int AS running,
           (count(*) FILTER (WHERE r.status = 'retrying'))::int AS retrying,
           (count(*) FILTER (WHERE r.status = 'rate_limited'))::int AS rate_limited,
           (count(*) FILTER (WHERE r.status = 'failed'))::int AS failed_24h,
           (count(*) FILTER (WHERE r.status = 'succeeded'))::int AS succeeded_24h
    FROM sync_runs r JOIN users u ON u.id = r.user_id
    WHERE u.tenant_id = ${tenantId}::uuid
      AND (r.status IN ('queued', 'running', 'retrying', 'rate_limited')
           OR (r.status IN ('failed', 'succeeded') AND r.finished_at >= ${since}))`;
  return counts!;
}

export interface RawObjectCounts {
  pending: number;
  receiving: number;
  failed: number;
}

/**
 * Raw objects waiting for the ETL, uploads receiving bytes (a heartbeat within `lapseMs`), and
 * raw objects the ETL gave up on: of one tenant, or with `tenantId` null of the whole instance.
 */
export async function countRawObjectsInProcessing(db: DbClient, tenantId: string | null, lapseMs: number): Promise<RawObjectCounts> {
  const rawObjects =
    tenantId === null
      ? Prisma.sql`raw_objects r WHERE`
      : Prisma.sql`raw_objects r JOIN users u ON u.id = r.user_id WHERE u.tenant_id = ${tenantId}::uuid AND`;
  const [counts] = await db.$queryRaw<RawObjectCounts[]>`
    SELECT (count(*) FILTER (WHERE r.status = 'pending'))::int AS pending,
           (count(*) FILTER (WHERE r.status = 'receiving' AND r.heartbeat_at > now() - ${lapseMs} * interval '1 millisecond'))::int AS receiving,
           (count(*) FILTER (WHERE r.status = 'failed'))::int AS failed
    FROM ${rawObjects} r.status IN ('pending', 'receiving', 'failed')`;
  return counts!;
}

/** Raw objects stored since `since` and their bytes (uploads still receiving left out). */
export async function countRawObjectsStored(db: DbClient, tenantId: string, since: Date): Promise<{ objects: number; bytes: number }> {
  const [counts] = await db.$queryRaw<Array<{ objects: number; bytes: bigint }>>`
    SELECT count(*)::int AS objects, coalesce(sum(r.byte_size), 0)::bigint AS bytes
    FROM raw_objects r JOIN users u ON u.id = r.user_id
    WHERE u.tenant_id = ${tenantId}::uuid AND r.received_at >= ${since} AND r.status <> 'receiving'`;
  return { objects: counts!.objects, bytes: Number(counts!.bytes) };
}

export async function countRejectedRecords(db: DbClient, tenantId: string): Promise<number> {
  const [counts] = await db.$queryRaw<Array<{ count: number }>>`
    SELECT count(*)::int AS count FROM rejected_records rr JOIN users u ON u.id = rr.user_id WHERE u.tenant_id = ${tenantId}::uuid`;
  return counts!.count;
}

export interface DeliveryCounts {
  endpoints: number;
  endpoints_failing: number;
  endpoints_disabled: number;
  pending: number;
  parked: number;
}

/** The tenant's endpoints (failing: active with a failing_since) and its deliveries still to send (pending or running) or parked. */
export async function countDeliveries(db: DbClient, tenantId: string): Promise<DeliveryCounts> {
  const [endpoints] = await db.$queryRaw<Array<Pick<DeliveryCounts, "endpoints" | "endpoints_failing" | "endpoints_disabled">>>`
    SELECT count(*)::int AS endpoints,
           (count(*) FILTER (WHERE e.status = 'active' AND e.failing_since IS NOT NULL))::int AS endpoints_failing,
           (count(*) FILTER (WHERE e.status = 'disabled'))::int AS endpoints_disabled
    FROM webhook_endpoints e WHERE e.tenant_id = ${tenantId}::uuid`;
  const [deliveries] = await db.$queryRaw<Array<Pick<DeliveryCounts, "pending" | "parked">>>`
    SELECT (count(*) FILTER (WHERE d.status IN ('pending', 'running')))::int AS pending,
           (count(*) FILTER (WHERE d.status = 'parked'))::int AS parked
    FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
    WHERE e.tenant_id = ${tenantId}::uuid AND d.status IN ('pending', 'running', 'parked')`;
  return { ...endpoints!, ...deliveries! };
}
