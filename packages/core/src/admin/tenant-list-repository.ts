import type { CreatedAtCursor, DbClient } from "../platform/index.ts";

export interface TenantListRow {
  id: string;
  name: string;
  status: "active" | "deleting";
  createdAt: Date;
  _count: { users: number };
}

const TENANT_SUMMARY = { id: true, name: true, status: true, createdAt: true, _count: { select: { users: { where: { status: "active" } } } } } as const;

/** One tenant with its count of active users, or null. */
export function findTenantWithActiveUsers(db: DbClient, tenantId: string): Promise<TenantListRow | null> {
  return db.tenant.findUnique({ where: { id: tenantId }, select: TENANT_SUMMARY });
}

/** Tenants of the instance, oldest first, after the cursor, each with its count of active users; one row more than `limit`. */
export function listTenantsWithActiveUsers(db: DbClient, limit: number, after: CreatedAtCursor | undefined): Promise<TenantListRow[]> {
  const afterDate = after && new Date(after.t);
  return db.tenant.findMany({
    where: afterDate && { OR: [{ createdAt: { gt: afterDate } }, { createdAt: afterDate, id: { gt: after.id } }] },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: limit + 1,
    select: TENANT_SUMMARY,
  });
}
