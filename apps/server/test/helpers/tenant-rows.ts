// Counts a tenant's rows in every table of the database, so a test can show that a tenant's
// deletion left nothing of it and touched no other tenant. Each table is classified by how its
// rows belong to a tenant; a table nobody classified fails the count, so a new table cannot
// slip past the tenant deletion.
import type { Database } from "@svc/db";

/** Tables of the instance itself: no row of them belongs to a tenant. */
const INSTANCE_TABLES = new Set(["_prisma_migrations", "admin_keys", "instance_providers", "tenant_deletion_jobs"]);

/**
 * Work a worker takes up by itself at any moment (stale ranges of merged rollups): a tenant's
 * rows there come and go, so they are not counted; they go with their user by cascade.
 */
const WORK_TABLES = new Set(["quantity_sample_merged_dirty"]);

/** The ids a tenant's rows are found by, read before the tenant is deleted (its parent rows are gone after). */
export interface TenantScope {
  tenantId: string;
  userIds: string[];
  sleepSessionIds: string[];
  workoutIds: string[];
  ecgIds: string[];
  deliveryIds: string[];
  connectionIds: string[];
  exportIds: string[];
}

export async function tenantScope(db: Database, tenantId: string): Promise<TenantScope> {
  const userIds = (await db.user.findMany({ where: { tenantId }, select: { id: true } })).map((row) => row.id);
  const ofUsers = { where: { userId: { in: userIds } }, select: { id: true } } as const;
  return {
    tenantId,
    userIds,
    sleepSessionIds: (await db.sleepSession.findMany(ofUsers)).map((row) => row.id),
    workoutIds: (await db.workout.findMany(ofUsers)).map((row) => row.id),
    ecgIds: (await db.ecgRecording.findMany(ofUsers)).map((row) => row.id),
    deliveryIds: (await db.webhookDelivery.findMany({ where: { tenantId }, select: { id: true } })).map((row) => row.id.toString()),
    connectionIds: (await db.connection.findMany(ofUsers)).map((row) => row.id.toString()),
    exportIds: (await db.fhirExport.findMany({ where: { tenantId }, select: { id: true } })).map((row) => row.id),
  };
}

/** Rows per table that belong to the tenant; audit_entries counts only the tenant's own entries (actor `tenant`). */
export async function tenantRowCounts(db: Database, scope: TenantScope): Promise<Record<string, number>> {
  const tables = await db.$queryRaw<Array<{ table_name: string; columns: string[] }>>`
    SELECT table_name::text, array_agg(column_name::text) AS columns
    FROM information_schema.columns WHERE table_schema = 'public' GROUP BY table_name ORDER BY table_name`;
  const counts: Record<string, number> = {};
  for (const { table_name: table, columns } of tables) {
    if (INSTANCE_TABLES.has(table) || WORK_TABLES.has(table)) continue;
    const rows = await db.$queryRawUnsafe<Array<{ n: bigint }>>(`SELECT count(*) AS n FROM "${table}" WHERE ${whereOf(table, new Set(columns), scope)}`);
    counts[table] = Number(rows[0]?.n ?? 0);
  }
  return counts;
}

/** An SQL array literal of ids (uuids or integers only: checked, so the text is safe to inline). */
function list(values: string[], type: "uuid" | "bigint" | "text"): string {
  for (const value of values) if (!/^[0-9a-z:-]+$/i.test(value)) throw new Error(`not an id: ${value}`);
  return `ARRAY[${values.map((value) => `'${value}'`).join(",")}]::${type}[]`;
}

function whereOf(table: string, columns: Set<string>, scope: TenantScope): string {
  const tenant = list([scope.tenantId], "uuid");
  const users = list(scope.userIds, "uuid");
  switch (table) {
    case "tenants":
      return `id = ANY(${tenant})`;
    case "audit_entries":
      return `tenant_id = ANY(${tenant}) AND actor_kind = 'tenant'`;
    case "rate_limits":
      return `key = ANY(${list([`tenant:${scope.tenantId}`, ...scope.userIds.map((id) => `user:${id}`)], "text")})`;
    case "provider_quotas":
      return `bucket = ANY(${list(scope.connectionIds.map((id) => `user:${id}`), "text")})`;
    case "sleep_phases":
      return `session_id = ANY(${list(scope.sleepSessionIds, "uuid")})`;
    case "workout_route_chunks":
    case "workout_track_summaries":
      return `workout_id = ANY(${list(scope.workoutIds, "uuid")})`;
    case "ecg_voltages":
      return `recording_id = ANY(${list(scope.ecgIds, "uuid")})`;
    case "webhook_attempts":
      return `delivery_id = ANY(${list(scope.deliveryIds, "bigint")})`;
    case "fhir_export_files":
      return `export_id = ANY(${list(scope.exportIds, "uuid")})`;
  }
  const byTenant = columns.has("tenant_id") ? `tenant_id = ANY(${tenant})` : null;
  const byUser = columns.has("user_id") ? `user_id = ANY(${users})` : null;
  if (byTenant && byUser) return `(${byTenant} OR ${byUser})`;
  const either = byTenant ?? byUser;
  if (either) return either;
  throw new Error(`table ${table}: say how its rows belong to a tenant (helpers/tenant-rows.ts) and make the tenant deletion delete them`);
}
