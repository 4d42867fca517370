import type { CreatedAtCursor, DbClient } from "../platform/index.ts";

export interface AuditEntryWrite {
  actorKind: "admin" | "tenant";
  actorId: string;
  action: string;
  tenantId: string | null;
  userId?: string | null;
  provider?: string | null;
  resourceType?: string | null;
  resourceId?: string | null;
  requestId: string | null;
}

const auditEntryFields = {
  id: true,
  createdAt: true,
  actorKind: true,
  actorId: true,
  action: true,
  tenantId: true,
  userId: true,
  provider: true,
  resourceType: true,
  resourceId: true,
  requestId: true,
} as const;

export interface AuditEntryRow {
  id: string;
  createdAt: Date;
  actorKind: string;
  actorId: string;
  action: string;
  tenantId: string | null;
  userId: string | null;
  provider: string | null;
  resourceType: string | null;
  resourceId: string | null;
  requestId: string | null;
}

export async function insertAuditEntry(db: DbClient, entry: AuditEntryWrite): Promise<void> {
  await db.auditEntry.create({ data: entry, select: { id: true } });
}

/** Whether the actor has an entry of this action about the tenant written after `since`. */
export async function hasAuditEntrySince(db: DbClient, entry: { actorId: string; action: string; tenantId: string }, since: Date): Promise<boolean> {
  const found = await db.auditEntry.findFirst({
    where: { tenantId: entry.tenantId, actorId: entry.actorId, action: entry.action, createdAt: { gt: since } },
    select: { id: true },
  });
  return found !== null;
}

/** Which log: the instance's (every admin entry) or one tenant's (every entry about it). */
export type AuditLog = { kind: "instance" } | { kind: "tenant"; tenantId: string };

/** Narrows a log; every field given must match. `readActionSuffix` set: only actions not ending in it (writes). */
export interface AuditEntryFilter {
  actorId?: string | undefined;
  actorKind?: "admin" | "tenant" | undefined;
  action?: string | undefined;
  userId?: string | undefined;
  readActionSuffix?: string | undefined;
}

/** Entries of one log matching the filter, newest first, after the cursor; one row more than `limit`. */
export function listAuditEntries(
  db: DbClient,
  log: AuditLog,
  limit: number,
  before: CreatedAtCursor | undefined,
  filter: AuditEntryFilter = {},
): Promise<AuditEntryRow[]> {
  const beforeDate = before && new Date(before.t);
  return db.auditEntry.findMany({
    where: {
      ...(log.kind === "instance" ? { actorKind: "admin" } : { tenantId: log.tenantId }),
      AND: [
        filter.actorId !== undefined ? { actorId: filter.actorId } : {},
        filter.actorKind !== undefined ? { actorKind: filter.actorKind } : {},
        filter.action !== undefined ? { action: filter.action } : {},
        filter.userId !== undefined ? { userId: filter.userId } : {},
        filter.readActionSuffix !== undefined ? { NOT: { action: { endsWith: filter.readActionSuffix } } } : {},
      ],
      ...(beforeDate && {
        OR: [{ createdAt: { lt: beforeDate } }, { createdAt: beforeDate, id: { lt: before.id } }],
      }),
    },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: limit + 1,
    select: auditEntryFields,
  });
}
