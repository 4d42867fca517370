import type { CoreDeps } from "../../deps.ts";
import { RawStoreUnavailable } from "../../platform/index.ts";
import { exportFileKey } from "./export-file-keys.ts";
import { type ExportTarget, MAX_PART_RESOURCES } from "./export-parts.ts";
import { completeExportRun, type ExportRun, exportIsRunning, failExportRun, recordExportFile, startExportRun } from "./export-runs-repository.ts";
import { writeFhirExport } from "./write-fhir-export.ts";

/** How FHIR Bulk Data exports are kept. */
export interface FhirExportSettings {
  /** How long the files of a completed export stay (SVC_FHIR_EXPORT_RETENTION_HOURS). */
  retentionHours: number;
}

/** A run works about this long, then queues the next run at a file's end (no attempt comes near the job's expiry). */
const RUN_SLICE_MS = 10 * 60_000;

/** No file of an export is refused for its size: a part is bounded by its count of resources. */
const NO_BYTE_LIMIT = Number.MAX_SAFE_INTEGER;

/** The export was cancelled (or deleted) while it ran: the run stops, keeping nothing more. */
class ExportStopped extends Error {}

/** The run has worked its slice: the next run continues. */
class RunSliceEnded extends Error {}

type RunDeps = Pick<CoreDeps, "db" | "jobs" | "rawStore" | "instance" | "fhirExports">;

/** The raw store as an export's target: each file under the export's key (exportFileKey). */
function rawStoreTarget(deps: RunDeps, run: ExportRun): ExportTarget {
  return {
    async write(fileNumber, _type, body) {
      const storageKey = exportFileKey(run, fileNumber);
      const { byteSize } = await deps.rawStore.write(storageKey, body, NO_BYTE_LIMIT);
      return { storageKey, byteSize };
    },
  };
}

/**
 * The `fhir-export` job: writes the export's NDJSON files into the raw store, from where an
 * earlier run stopped (resume_position; a file it cut mid-way is written again). After each
 * durable file, one transaction records it, the count written and where to continue. It stops
 * once the export is cancelled (checked between pages every few seconds, and with each file),
 * and after about RUN_SLICE_MS queues the next run. At the end the export is completed, kept
 * for the retention period. Safe to run again after a crash. `maxPartResources`: smaller parts in tests.
 */
export async function runFhirExport(deps: RunDeps, exportId: string, maxPartResources = MAX_PART_RESOURCES): Promise<void> {
  const { db } = deps;
  const run = await startExportRun(db, exportId);
  if (!run) return;
  const sliceEnds = Date.now() + RUN_SLICE_MS;
  const scope = { ...run, codeSystemBase: deps.instance.fhirCodeSystemBase() };
  try {
    await writeFhirExport(db, scope, run.resumePosition, rawStoreTarget(deps, run), {
      async onPart(part, resumeAt) {
        if (!(await recordExportFile(db, run.id, part, resumeAt))) {
          await deps.rawStore.delete(part.storageKey);
          throw new ExportStopped();
        }
        if (Date.now() > sliceEnds) throw new RunSliceEnded();
      },
      async checkStop() {
        if (!(await exportIsRunning(db, run.id))) throw new ExportStopped();
      },
    }, maxPartResources);
  } catch (error) {
    if (error instanceof ExportStopped) return;
    if (error instanceof RunSliceEnded) {
      await deps.jobs.send("fhir-export", { fhir_export_id: run.id });
      return;
    }
    throw error;
  }
  await completeExportRun(db, run.id, deps.fhirExports.retentionHours);
}

/** Records that an export failed after its last attempt; the error's details stay in logs. */
export async function failFhirExport(deps: Pick<CoreDeps, "db" | "fhirExports">, exportId: string, error: unknown): Promise<void> {
  const code = error instanceof RawStoreUnavailable ? "raw_store_unavailable" : "export_failed";
  await failExportRun(deps.db, exportId, code, deps.fhirExports.retentionHours);
}
