/**
 * The raw store key of a file of an export: under its user for a one-user export (the user's
 * erasure deletes it with the user's raw objects), under the tenant's exports otherwise.
 */
export function exportFileKey(exportRun: { id: string; tenantId: string; userId: string | null }, fileNumber: number): string {
  return exportRun.userId !== null
    ? `${exportRun.userId}/fhir-export-${exportRun.id}-${fileNumber}.ndjson`
    : `fhir-exports/${exportRun.tenantId}/${exportRun.id}/${fileNumber}.ndjson`;
}
