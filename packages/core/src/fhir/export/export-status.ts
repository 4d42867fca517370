import type { CoreDeps } from "../../deps.ts";
import type { ReaderPrincipal } from "../../identity/index.ts";
import { AppError } from "../../platform/index.ts";
import type { FhirBaseSettings } from "../base/fhir-base.ts";
import { requireVisibleExport } from "./export-access.ts";
import { listExportFiles } from "./export-requests-repository.ts";
import { exportFileUrl } from "./export-urls.ts";

/** The Bulk Data IG's complete-status body (its manifest); svc adds nothing at its top level. */
export interface ExportManifest {
  transactionTime: string;
  request: string;
  requiresAccessToken: true;
  output: Array<{ type: string; url: string; count: number }>;
  error: Array<{ type: "OperationOutcome"; url: string }>;
}

/** Seconds a client is asked to wait between two polls of an export in progress. */
export const POLL_RETRY_AFTER_SECONDS = 2;

export type ExportStatus =
  | { kind: "in-progress"; progress: string; retryAfterSeconds: number }
  | { kind: "completed"; manifest: ExportManifest; expiresAt: Date | null };

/**
 * `GET /v1/fhir/bulk-status/{export_id}`: in progress (queued or running, with the resources
 * written so far), or the manifest once completed: one output item per file, in order, with
 * absolute URLs under the base. A failed export is the IG's error answer (500 with an
 * OperationOutcome naming its error code, never a health value); a cancelled or expired one,
 * or one the caller may not follow, is a 404.
 */
export async function fhirExportStatus(
  deps: Pick<CoreDeps, "db">,
  principal: ReaderPrincipal,
  exportId: string,
  settings: Pick<FhirBaseSettings, "baseUrl">,
): Promise<ExportStatus> {
  const found = await requireVisibleExport(deps.db, principal, exportId);
  switch (found.state) {
    case "queued":
      return { kind: "in-progress", progress: "queued", retryAfterSeconds: POLL_RETRY_AFTER_SECONDS };
    case "running":
      return { kind: "in-progress", progress: `${found.resourcesWritten} resources written`, retryAfterSeconds: POLL_RETRY_AFTER_SECONDS };
    case "failed":
      throw new AppError("internal", `The export failed (${found.errorCode ?? "unknown"}); kick it off again.`, { detailForCaller: true });
    case "completed": {
      const files = await listExportFiles(deps.db, found.id);
      return {
        kind: "completed",
        expiresAt: found.expiresAt,
        manifest: {
          transactionTime: found.transactionTime.toISOString(),
          request: found.requestUrl,
          requiresAccessToken: true,
          output: files.map((file) => ({ type: file.resourceType, url: exportFileUrl(settings, found.id, file.fileNumber), count: Number(file.resourceCount) })),
          error: [],
        },
      };
    }
    case "cancelled":
      throw new AppError("not_found", "No such export.");
  }
}
