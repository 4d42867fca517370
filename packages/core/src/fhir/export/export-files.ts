import type { CoreDeps } from "../../deps.ts";
import type { ReaderPrincipal } from "../../identity/index.ts";
import { requireVisibleExport } from "./export-access.ts";
import { findExportFile } from "./export-requests-repository.ts";
import { AppError } from "../../platform/index.ts";

/** An NDJSON file of an export, ready to stream. */
export interface OpenedExportFile {
  byteSize: number;
  body: AsyncIterable<Uint8Array>;
}

const noSuchFile = () => new AppError("not_found", "No such file: the export is not complete, or has no file of this number, or it expired or was cancelled.");

/**
 * `GET /v1/fhir/bulk-files/{export_id}/{file_number}`: a file of a completed export the caller
 * may follow (the same credentials as its status URL), streamed from the raw store.
 */
export async function openFhirExportFile(
  deps: Pick<CoreDeps, "db" | "rawStore">,
  principal: ReaderPrincipal,
  exportId: string,
  fileNumber: string,
): Promise<OpenedExportFile> {
  const found = await requireVisibleExport(deps.db, principal, exportId);
  if (found.state !== "completed" || !/^[1-9]\d{0,8}$/.test(fileNumber)) throw noSuchFile();
  const file = await findExportFile(deps.db, found.id, Number(fileNumber));
  if (!file) throw noSuchFile();
  return { byteSize: Number(file.byteSize), body: deps.rawStore.read(file.storageKey) };
}
