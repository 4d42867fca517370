import type { CoreDeps } from "../deps.ts";
import { deleteDroppedUpload, findDroppedUploads, markLapsedUploadsDropped } from "./raw-object-repository.ts";

const BATCH = 500;

/**
 * Drops the uploads whose process died or whose bytes stopped arriving: every receiving upload
 * whose heartbeat lapsed more than `sweepAfterMs` ago is marked as being dropped (no heartbeat
 * revives it, no commit keeps it), then for each upload being dropped its bytes are deleted,
 * then its row. An upload whose bytes cannot be deleted now stays marked for the next run.
 */
export async function sweepDroppedUploads(
  deps: Pick<CoreDeps, "db" | "rawStore" | "uploads">,
): Promise<{ dropped: string[]; failed: Array<{ id: string; error: unknown }> }> {
  await markLapsedUploadsDropped(deps.db, deps.uploads.sweepAfterMs);
  const dropped: string[] = [];
  const failed: Array<{ id: string; error: unknown }> = [];
  for (const upload of await findDroppedUploads(deps.db, BATCH)) {
    try {
      await deps.rawStore.delete(upload.storageKey);
      await deleteDroppedUpload(deps.db, upload.id);
      dropped.push(upload.id);
    } catch (error) {
      failed.push({ id: upload.id, error });
    }
  }
  return { dropped, failed };
}
