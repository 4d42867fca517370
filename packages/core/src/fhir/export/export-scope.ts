import type { FhirExportType } from "./export-position.ts";

/** What an export holds: whose resources, of which types, updated when. */
export interface ExportScope {
  tenantId: string;
  /** One user; null: every active user of the tenant, in id order. */
  userId: string | null;
  resourceTypes: readonly FhirExportType[];
  /** `_since`: only resources whose meta.lastUpdated is after it. */
  since: Date | null;
  /** Only data whose meta.lastUpdated is at or before it (the kick-off time). */
  transactionTime: Date;
  /** `{fhir_code_system_base}`. */
  codeSystemBase: string;
}

/** Whether a resource updated at `lastUpdated` belongs in the export: after `since`, at or before the transaction time. */
export function updatedInScope(scope: ExportScope, lastUpdated: number): boolean {
  return lastUpdated <= scope.transactionTime.getTime() && (scope.since === null || lastUpdated > scope.since.getTime());
}
