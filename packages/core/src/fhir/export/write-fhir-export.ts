import type { Database } from "@svc/db";
import { encodeObservationCursor } from "../observation-position.ts";
import { exportLinePages } from "./export-lines.ts";
import { type ExportTarget, MAX_PART_RESOURCES, type WrittenPart, writeParts } from "./export-parts.ts";
import type { ExportPosition } from "./export-position.ts";
import type { ExportScope } from "./export-scope.ts";

/** What a writer of an export is told, and asked, as it goes. */
export interface ExportProgress {
  /** A file is durable; `resumeAt` is where an export continues after it. May throw to stop the export. */
  onPart(part: WrittenPart, resumeAt: ExportPosition): Promise<void>;
  /** Asked between pages, at most every STOP_CHECK_MS: throws to stop the export (it was cancelled). */
  checkStop?(): Promise<void>;
}

/** How often a writer asks whether to stop, at most. */
const STOP_CHECK_MS = 2000;

/** The pages, asking `checkStop` before a page at most every STOP_CHECK_MS. */
async function* checked<T>(pages: AsyncIterable<T>, checkStop: (() => Promise<void>) | undefined): AsyncGenerator<T> {
  let checkedAt = Date.now();
  for await (const page of pages) {
    if (checkStop && Date.now() - checkedAt >= STOP_CHECK_MS) {
      await checkStop();
      checkedAt = Date.now();
    }
    yield page;
  }
}

/**
 * Writes the NDJSON files of an export: for each type in order, its resources in files of at
 * most MAX_PART_RESOURCES, from `from` on (a resumed export; its file cut mid-way is written
 * again under the same number). Patients are their users in id order; Observations each
 * user's walk in turn.
 */
export async function writeFhirExport(
  db: Database,
  scope: ExportScope,
  from: ExportPosition | null,
  target: ExportTarget,
  progress: ExportProgress,
  maxResources = MAX_PART_RESOURCES,
): Promise<void> {
  const startType = from ? scope.resourceTypes.indexOf(from.type) : 0;
  let fileNumber = from?.fileNumber ?? 1;
  for (const [index, type] of scope.resourceTypes.entries()) {
    if (index < startType) continue;
    const pages = checked(exportLinePages(db, scope, type, index === startType ? (from ?? undefined) : undefined), progress.checkStop?.bind(progress));
    fileNumber = await writeParts(pages, {
      type,
      firstFileNumber: fileNumber,
      maxResources,
      target,
      onPart: (part, last) =>
        progress.onPart(part, {
          fileNumber: part.fileNumber + 1,
          type,
          user: last.user,
          ...(last.position && { after: encodeObservationCursor(last.position) }),
        }),
    });
  }
}
