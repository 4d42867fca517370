import type { CoreDeps } from "../../deps.ts";
import { deleteExportRow, listExportFiles, listExportsHoldingUser, listExportsOfTenant, listExportsToSweep } from "./export-requests-repository.ts";
import { discardFhirExport } from "./export-cancel.ts";

/** Exports deleted per round of the sweep. */
const SWEEP_BATCH = 100;

/**
 * The `fhir-export-sweep` job: deletes the files, then the rows, of exports past their expiry
 * (completed or failed) and of cancelled ones. A file being downloaded as it goes is read to
 * its end (an open file or object request outlives the delete).
 */
export async function sweepFhirExports(deps: Pick<CoreDeps, "db" | "rawStore">, now: Date = new Date()): Promise<{ deleted: number }> {
  let deleted = 0;
  for (;;) {
    const ids = await listExportsToSweep(deps.db, now, SWEEP_BATCH);
    for (const id of ids) {
      for (const file of await listExportFiles(deps.db, id)) await deps.rawStore.delete(file.storageKey);
      await deleteExportRow(deps.db, id);
    }
    deleted += ids.length;
    if (ids.length < SWEEP_BATCH) return { deleted };
  }
}

/**
 * Before a user is erased: every export that may hold the user's data is cancelled and its
 * files deleted — the user's own, and the tenant's all-patients exports kicked off since the
 * user was created (their files hold the user among others; they are not rewritten without it).
 */
export async function discardFhirExportsHoldingUser(deps: Pick<CoreDeps, "db" | "rawStore">, user: { tenantId: string; userId: string }): Promise<void> {
  for (const id of await listExportsHoldingUser(deps.db, user.tenantId, user.userId)) await discardFhirExport(deps, id);
}

/** A tenant being deleted: every export of it is cancelled and its files deleted (the rows go with the tenant's). */
export async function discardFhirExportsOfTenant(deps: Pick<CoreDeps, "db" | "rawStore">, tenantId: string): Promise<void> {
  for (const id of await listExportsOfTenant(deps.db, tenantId)) await discardFhirExport(deps, id);
}
