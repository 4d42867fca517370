import type { Database } from "@svc/db";
import type { DbClient } from "../../platform/index.ts";
import type { ExportPosition, FhirExportType } from "./export-position.ts";

// The rows the fhir-export job reads and writes as it runs an export (fhir_exports,
// fhir_export_files). The requests' own rows (kick-off, status, cancel, expiry) are
// export-requests-repository.ts's.

/** An export as its run needs it. */
export interface ExportRun {
  id: string;
  tenantId: string;
  userId: string | null;
  resourceTypes: FhirExportType[];
  since: Date | null;
  transactionTime: Date;
  resourcesWritten: bigint;
  resumePosition: ExportPosition | null;
}

interface ExportRunRow {
  id: string;
  tenant_id: string;
  user_id: string | null;
  resource_types: FhirExportType[];
  since: Date | null;
  transaction_time: Date;
  resources_written: bigint;
  resume_position: ExportPosition | null;
}

/** A file of an export, once it is durable in the raw store. */
export interface ExportFile {
  fileNumber: number;
  resourceType: FhirExportType;
  storageKey: string;
  resourceCount: number;
  byteSize: number;
}

/** The export turns running, unless it has ended (completed, failed, cancelled) or is gone: then null. */
export async function startExportRun(db: DbClient, exportId: string): Promise<ExportRun | null> {
  const rows = await db.$queryRaw<ExportRunRow[]>`
    UPDATE fhir_exports SET state = 'running'
    WHERE id = ${exportId}::uuid AND state IN ('queued', 'running')
    RETURNING id, tenant_id, user_id, resource_types, since, transaction_time, resources_written, resume_position`;
  const row = rows[0];
  if (!row) return null;
  return {
    id: row.id,
    tenantId: row.tenant_id,
    userId: row.user_id,
    resourceTypes: row.resource_types,
    since: row.since,
    transactionTime: row.transaction_time,
    resourcesWritten: row.resources_written,
    resumePosition: row.resume_position,
  };
}

/** Whether the export is still running (not cancelled, not deleted). */
export async function exportIsRunning(db: DbClient, exportId: string): Promise<boolean> {
  const rows = await db.$queryRaw<Array<{ running: boolean }>>`
    SELECT state = 'running' AS running FROM fhir_exports WHERE id = ${exportId}::uuid`;
  return rows[0]?.running === true;
}

/**
 * Records a durable file of a running export and where the run continues, in one
 * transaction; false when the export is no longer running (cancelled meanwhile): nothing is recorded.
 */
export async function recordExportFile(db: Database, exportId: string, file: ExportFile, resumeAt: ExportPosition): Promise<boolean> {
  const [updated] = await db.$transaction([
    db.$executeRaw`
      UPDATE fhir_exports SET resources_written = resources_written + ${file.resourceCount}, resume_position = ${JSON.stringify(resumeAt)}::jsonb
      WHERE id = ${exportId}::uuid AND state = 'running'`,
    db.$executeRaw`
      INSERT INTO fhir_export_files (export_id, file_number, resource_type, storage_key, resource_count, byte_size)
      SELECT id, ${file.fileNumber}, ${file.resourceType}, ${file.storageKey}, ${file.resourceCount}, ${file.byteSize}
      FROM fhir_exports WHERE id = ${exportId}::uuid AND state = 'running'`,
  ]);
  return updated === 1;
}

/** The export has written every file: completed, kept for `retentionHours`. */
export async function completeExportRun(db: DbClient, exportId: string, retentionHours: number): Promise<void> {
  await db.$executeRaw`
    UPDATE fhir_exports SET state = 'completed', resume_position = NULL, finished_at = now(),
      expires_at = now() + make_interval(hours => ${retentionHours}::int)
    WHERE id = ${exportId}::uuid AND state = 'running'`;
}

/** The export failed for good (its last attempt): `errorCode` names the fault, never data. Its answer is kept for `retentionHours`. */
export async function failExportRun(db: DbClient, exportId: string, errorCode: string, retentionHours: number): Promise<void> {
  await db.$executeRaw`
    UPDATE fhir_exports SET state = 'failed', error_code = ${errorCode}, resume_position = NULL, finished_at = now(),
      expires_at = now() + make_interval(hours => ${retentionHours}::int)
    WHERE id = ${exportId}::uuid AND state IN ('queued', 'running')`;
}

/** A user as its Patient is written: its id, its external_ref, when its row last changed. */
export interface ExportUser {
  id: string;
  externalRef: string | null;
  updatedAt: Date;
}

/**
 * The next `limit` users of an export after `afterId`, in id order: the tenant's active users
 * that existed at the transaction time (`userId`: that one only).
 */
export async function listExportUsers(
  db: DbClient,
  scope: { tenantId: string; userId: string | null; transactionTime: Date },
  afterId: string | undefined,
  limit: number,
): Promise<ExportUser[]> {
  const rows = await db.$queryRaw<Array<{ id: string; external_ref: string | null; updated_at: Date }>>`
    SELECT id, external_ref, updated_at FROM users
    WHERE tenant_id = ${scope.tenantId}::uuid AND status = 'active' AND created_at <= ${scope.transactionTime}
      AND (${scope.userId}::uuid IS NULL OR id = ${scope.userId}::uuid)
      AND (${afterId ?? null}::uuid IS NULL OR id > ${afterId ?? null}::uuid)
    ORDER BY id LIMIT ${limit}`;
  return rows.map((row) => ({ id: row.id, externalRef: row.external_ref, updatedAt: row.updated_at }));
}
