import { AppError, CreatedAtCursor, type DbClient, decodeCursor, type Page, toPage } from "../platform/index.ts";
import type { CoreDeps } from "../deps.ts";
import { findTenantWithActiveUsers, listTenantsWithActiveUsers, type TenantListRow } from "./tenant-list-repository.ts";
import { type AuditContext, type CreatedTenant, createTenant, listTenantDeletionJobsOf, recordAudit } from "../identity/index.ts";

/** The longest tenant name, after trimming. */
export const TENANT_NAME_MAX_LENGTH = 100;

/** One tenant as the admin tenant list answers it: counts only, never a key. */
export interface TenantSummaryDto {
  id: string;
  name: string;
  created_at: string;
  /** Active users (not those being deleted). */
  users: number;
  /** `deleting` from DELETE /v1/admin/tenants/{tenant_id} until the tenant is gone. */
  status: "active" | "deleting";
  /** The tenant's deletion while it is being deleted, else null. */
  deletion_job_id: string | null;
}

const toTenantSummaryDto = (row: TenantListRow, deletionJobId: string | null): TenantSummaryDto => ({
  id: row.id,
  name: row.name,
  created_at: row.createdAt.toISOString(),
  users: row._count.users,
  status: row.status,
  deletion_job_id: deletionJobId,
});

/** The deletion job of each tenant of `rows` being deleted. */
async function deletionJobIdsOf(db: DbClient, rows: TenantListRow[]): Promise<Map<string, string>> {
  const deleting = rows.filter((row) => row.status === "deleting").map((row) => row.id);
  if (deleting.length === 0) return new Map();
  return new Map((await listTenantDeletionJobsOf(db, deleting)).map((job) => [job.tenantId, job.id]));
}

/** A tenant name as given by a person: trimmed, 1 to 100 characters, no control characters; 400 otherwise. */
export function checkTenantName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length === 0 || trimmed.length > TENANT_NAME_MAX_LENGTH) {
    throw new AppError("bad_request", `The tenant name must be 1 to ${TENANT_NAME_MAX_LENGTH} characters.`);
  }
  if (/[\u0000-\u001f\u007f]/.test(trimmed)) throw new AppError("bad_request", "The tenant name must not contain control characters.");
  return trimmed;
}

/** GET /v1/admin/tenants: every tenant of the instance, oldest first. Not recorded in the audit log (an instance-level list). */
export async function listTenants(db: DbClient, page: { limit: number; cursor?: string | undefined }): Promise<Page<TenantSummaryDto>> {
  const after = page.cursor === undefined ? undefined : decodeCursor(page.cursor, CreatedAtCursor);
  const rows = await listTenantsWithActiveUsers(db, page.limit, after);
  const jobs = await deletionJobIdsOf(db, rows);
  return toPage(rows, page.limit, (row) => toTenantSummaryDto(row, jobs.get(row.id) ?? null), (row) => ({ t: row.createdAt.toISOString(), id: row.id }));
}

/** GET /v1/admin/tenants/{tenant_id}: one tenant as the list shows it (also while being deleted); 404 when unknown or gone. Not recorded, as the list. */
export async function getTenantSummary(db: DbClient, tenantId: string): Promise<TenantSummaryDto> {
  const row = await findTenantWithActiveUsers(db, tenantId);
  if (!row) throw new AppError("not_found", "No such tenant.");
  return toTenantSummaryDto(row, (await deletionJobIdsOf(db, [row])).get(row.id) ?? null);
}

/**
 * POST /v1/admin/tenants: a tenant with its first API key (shown once), recorded as audit
 * `tenant.create` about the new tenant (so in the instance's log and the tenant's) in the same
 * transaction.
 */
export async function createTenantForAdmin(deps: Pick<CoreDeps, "db">, audit: AuditContext, name: string): Promise<CreatedTenant> {
  const checked = checkTenantName(name);
  return deps.db.$transaction(async (tx) => {
    const created = await createTenant(tx, checked);
    await recordAudit(tx, audit, "tenant.create", { tenantId: created.tenant_id, resource: { type: "tenant", id: created.tenant_id } });
    return created;
  });
}
