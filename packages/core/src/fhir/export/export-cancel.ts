import type { CoreDeps } from "../../deps.ts";
import type { ReaderPrincipal } from "../../identity/index.ts";
import { requireVisibleExport } from "./export-access.ts";
import { deleteExportFileRows, listExportFiles, markExportCancelled } from "./export-requests-repository.ts";

/**
 * `DELETE /v1/fhir/bulk-status/{export_id}`: the export turns cancelled (its status URL and
 * files answer 404 from now on; a run in progress stops at its next part) and its files are
 * deleted. Of a completed export it is the client's word that it is done with the files.
 */
export async function cancelFhirExport(deps: Pick<CoreDeps, "db" | "rawStore">, principal: ReaderPrincipal, exportId: string): Promise<void> {
  const found = await requireVisibleExport(deps.db, principal, exportId);
  await discardFhirExport(deps, found.id);
}

/**
 * Cancels an export and deletes the bytes of its files, then their rows. The cancellation
 * commits first: a run records no file after it, so every file the run made is listed here.
 * Safe to run again (the retention sweep deletes the row later).
 */
export async function discardFhirExport(deps: Pick<CoreDeps, "db" | "rawStore">, exportId: string): Promise<void> {
  await markExportCancelled(deps.db, exportId);
  const files = await listExportFiles(deps.db, exportId);
  for (const file of files) await deps.rawStore.delete(file.storageKey);
  await deleteExportFileRows(
    deps.db,
    exportId,
    files.map((file) => file.fileNumber),
  );
}
