import type { DbClient } from "../../platform/index.ts";

// The rows of the export requests (kick-off, status, cancel, file downloads, retention and
// erasure). The rows a run writes as it goes are export-runs-repository.ts's.

export type ExportState = "queued" | "running" | "completed" | "failed" | "cancelled";

/** An export as its requests see it. */
export interface ExportRequestRow {
  id: string;
  tenantId: string;
  userId: string | null;
  state: ExportState;
  resourcesWritten: bigint;
  transactionTime: Date;
  requestUrl: string;
  errorCode: string | null;
  expiresAt: Date | null;
}

/** A durable file of an export. */
export interface ExportFileRow {
  fileNumber: number;
  resourceType: string;
  storageKey: string;
  resourceCount: bigint;
  byteSize: bigint;
}

interface ExportRequestColumns {
  id: string;
  tenant_id: string;
  user_id: string | null;
  state: ExportState;
  resources_written: bigint;
  transaction_time: Date;
  request_url: string;
  error_code: string | null;
  expires_at: Date | null;
}

const toRow = (row: ExportRequestColumns): ExportRequestRow => ({
  id: row.id,
  tenantId: row.tenant_id,
  userId: row.user_id,
  state: row.state,
  resourcesWritten: row.resources_written,
  transactionTime: row.transaction_time,
  requestUrl: row.request_url,
  errorCode: row.error_code,
  expiresAt: row.expires_at,
});

/** Serializes the kick-offs of one tenant until the transaction ends, so that its limit of exports in flight holds. */
export async function lockTenantExports(db: DbClient, tenantId: string): Promise<void> {
  await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`fhir-export:${tenantId}`}, 0))`;
}

/** Exports of the tenant still queued or running. */
export async function countExportsInFlight(db: DbClient, tenantId: string): Promise<number> {
  const rows = await db.$queryRaw<Array<{ count: bigint }>>`
    SELECT count(*) AS count FROM fhir_exports WHERE tenant_id = ${tenantId}::uuid AND state IN ('queued', 'running')`;
  return Number(rows[0]?.count ?? 0);
}

/** A new queued export; its transaction time is the database's clock now. */
export async function insertExport(
  db: DbClient,
  input: { tenantId: string; userId: string | null; resourceTypes: string[]; since: Date | null; requestUrl: string },
): Promise<ExportRequestRow> {
  const rows = await db.$queryRaw<ExportRequestColumns[]>`
    INSERT INTO fhir_exports (id, tenant_id, user_id, resource_types, since, transaction_time, request_url)
    VALUES (gen_random_uuid(), ${input.tenantId}::uuid, ${input.userId}::uuid, ${input.resourceTypes}::text[], ${input.since}::timestamptz,
      date_trunc('milliseconds', clock_timestamp()), ${input.requestUrl})
    RETURNING id, tenant_id, user_id, state, resources_written, transaction_time, request_url, error_code, expires_at`;
  return toRow(rows[0]!);
}

/** An export of the tenant, whatever its state; null when there is none under this id. */
export async function findExportOfTenant(db: DbClient, tenantId: string, exportId: string): Promise<ExportRequestRow | null> {
  const rows = await db.$queryRaw<ExportRequestColumns[]>`
    SELECT id, tenant_id, user_id, state, resources_written, transaction_time, request_url, error_code, expires_at
    FROM fhir_exports WHERE id = ${exportId}::uuid AND tenant_id = ${tenantId}::uuid`;
  return rows[0] ? toRow(rows[0]) : null;
}

/** The durable files of an export, in output order. */
export function listExportFiles(db: DbClient, exportId: string): Promise<ExportFileRow[]> {
  return db.$queryRaw<ExportFileRow[]>`
    SELECT file_number AS "fileNumber", resource_type AS "resourceType", storage_key AS "storageKey",
      resource_count AS "resourceCount", byte_size AS "byteSize"
    FROM fhir_export_files WHERE export_id = ${exportId}::uuid ORDER BY file_number`;
}

export async function findExportFile(db: DbClient, exportId: string, fileNumber: number): Promise<ExportFileRow | null> {
  const rows = await db.$queryRaw<ExportFileRow[]>`
    SELECT file_number AS "fileNumber", resource_type AS "resourceType", storage_key AS "storageKey",
      resource_count AS "resourceCount", byte_size AS "byteSize"
    FROM fhir_export_files WHERE export_id = ${exportId}::uuid AND file_number = ${fileNumber}`;
  return rows[0] ?? null;
}

/**
 * The export turns cancelled (a run in progress sees it and stops; it records no file after
 * this commits). False when it was cancelled already or is gone.
 */
export async function markExportCancelled(db: DbClient, exportId: string): Promise<boolean> {
  const updated = await db.$executeRaw`
    UPDATE fhir_exports SET state = 'cancelled', finished_at = now(), expires_at = NULL
    WHERE id = ${exportId}::uuid AND state <> 'cancelled'`;
  return updated > 0;
}

/** Forgets files whose bytes were deleted. */
export async function deleteExportFileRows(db: DbClient, exportId: string, fileNumbers: number[]): Promise<void> {
  if (fileNumbers.length === 0) return;
  await db.$executeRaw`DELETE FROM fhir_export_files WHERE export_id = ${exportId}::uuid AND file_number = ANY(${fileNumbers}::int[])`;
}

/** Exports whose files and rows go now: past their expiry (completed or failed), or cancelled. */
export async function listExportsToSweep(db: DbClient, now: Date, limit: number): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ id: string }>>`
    SELECT id FROM fhir_exports WHERE expires_at <= ${now}
    UNION ALL
    SELECT id FROM fhir_exports WHERE state = 'cancelled'
    LIMIT ${limit}`;
  return rows.map((row) => row.id);
}

/** Deletes an export's row (its file rows go with it); its files must be deleted first. */
export async function deleteExportRow(db: DbClient, exportId: string): Promise<void> {
  await db.$executeRaw`DELETE FROM fhir_exports WHERE id = ${exportId}::uuid`;
}

/**
 * The exports that may hold a user's data: the user's own, and the tenant's all-patients
 * exports kicked off since the user was created. Empty when the user is gone.
 */
export async function listExportsHoldingUser(db: DbClient, tenantId: string, userId: string): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ id: string }>>`
    SELECT e.id FROM fhir_exports e JOIN users u ON u.id = ${userId}::uuid AND u.tenant_id = ${tenantId}::uuid
    WHERE e.tenant_id = ${tenantId}::uuid
      AND (e.user_id = u.id OR (e.user_id IS NULL AND e.transaction_time >= u.created_at))`;
  return rows.map((row) => row.id);
}

/** Every export of a tenant, whatever its state. */
export async function listExportsOfTenant(db: DbClient, tenantId: string): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ id: string }>>`SELECT id FROM fhir_exports WHERE tenant_id = ${tenantId}::uuid`;
  return rows.map((row) => row.id);
}
