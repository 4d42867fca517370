import { createHash, randomUUID } from "node:crypto";
import { AppError, isUniqueViolation } from "../platform/index.ts";
import type { CoreDeps } from "../deps.ts";
import {
  countLiveUploads,
  deleteDroppedUpload,
  findRawObjectByUploadKey,
  insertReceivingRawObject,
  markRawObjectStored,
  markUploadDropped,
  type RawObjectRow,
} from "./raw-object-repository.ts";
import { erasureRunning, findUserById, lockUserForUpload, requireProviderOnForTenant } from "../identity/index.ts";
import { startUploadHeartbeat, UploadDropped } from "./upload-heartbeat.ts";
import { sendEtlJob } from "./etl-jobs.ts";

/** Uploads of one user whose bytes may arrive at the same time (spec: one shared limit). */
export const UPLOADS_IN_FLIGHT_PER_USER = 4;

export interface UploadTarget {
  userId: string;
  provider: string;
  format: string;
  contentType: string;
}

/** The answer to an accepted upload (202), replayed as it was for a repeat. */
export interface UploadAnswer {
  upload_id: string;
  status: "accepted";
  byte_size: number;
  sha256: string;
  received_at: string;
}

const answerOf = (row: RawObjectRow): UploadAnswer => ({
  upload_id: row.id,
  status: "accepted",
  byte_size: Number(row.byteSize),
  sha256: row.sha256,
  received_at: row.receivedAt.toISOString(),
});

/**
 * Admits an upload before its bytes are read: 403 while an admin switched the provider
 * off for the tenant, 409 while an erasure of the user's data of this provider runs, 429
 * above the uploads in flight (receiving, with a live heartbeat) with Retry-After saying
 * when the first of them lapses if its process stopped beating. Reserves its raw object.
 */
export async function beginUpload(
  deps: Pick<CoreDeps, "db" | "uploads">,
  tenantId: string,
  target: UploadTarget,
): Promise<{ rawObjectId: string; storageKey: string }> {
  const { db } = deps;
  await requireProviderOnForTenant(db, tenantId, target.provider);
  if (await erasureRunning(db, target.userId, target.provider)) {
    throw new AppError("conflict", `The user's ${target.provider} data is being erased; uploads are refused until the erasure is done.`);
  }
  const inFlight = await countLiveUploads(db, target.userId, deps.uploads.lapseMs);
  if (inFlight.count >= UPLOADS_IN_FLIGHT_PER_USER) {
    const lapseSeconds = Math.ceil(deps.uploads.lapseMs / 1000);
    const retryAfter = Math.min(Math.max(inFlight.secondsToLapse ?? 1, 1), lapseSeconds);
    throw new AppError("too_many_requests", `At most ${UPLOADS_IN_FLIGHT_PER_USER} uploads of a user may be in flight; retry when one is done.`, {
      headers: { "Retry-After": String(retryAfter) },
    });
  }
  const rawObjectId = randomUUID();
  const storageKey = `${target.userId}/${rawObjectId}`;
  await insertReceivingRawObject(db, { id: rawObjectId, storageKey, ...target });
  return { rawObjectId, storageKey };
}

/**
 * Ends an upload whose bytes are stored and checked. A repeat (same Idempotency-Key, or
 * without one the same bytes) keeps nothing new and answers the first upload again; the
 * same key with other bytes is 422, and while the first is still arriving 409. A user
 * whose deletion started while the bytes arrived gets 410 and nothing is kept; nothing is
 * kept either of an upload the sweep dropped meanwhile (UploadDropped). Otherwise the raw
 * object turns pending and its ETL job is queued in the same transaction.
 */
export async function completeUpload(
  deps: Pick<CoreDeps, "db" | "jobs" | "rawStore">,
  upload: { rawObjectId: string; storageKey: string; userId: string; provider: string; idempotencyKey: string | undefined },
  stored: { byteSize: number; sha256: string },
): Promise<{ answer: UploadAnswer; replayed: boolean }> {
  const uploadKey = upload.idempotencyKey ?? `sha256:${stored.sha256}`;
  let outcome: UploadOutcome;
  try {
    outcome = await settleUpload(deps, upload, stored, uploadKey);
  } catch (error) {
    // A twin upload (same key, or without one the same bytes) was stored at the same moment:
    // both saw no first upload and the unique upload key refused the later one. Settling
    // again sees the twin's committed row and answers as a sequential repeat would.
    if (!isUniqueViolation(error)) throw error;
    outcome = await settleUpload(deps, upload, stored, uploadKey);
  }
  if (outcome.kind === "stored") return { answer: answerOf(outcome.row), replayed: false };
  await abandonUpload(deps, upload);
  switch (outcome.kind) {
    case "replay":
      return { answer: answerOf(outcome.row), replayed: true };
    case "gone":
      throw deletionStartedMeanwhile();
    case "erasing":
      throw new AppError("conflict", `The user's ${upload.provider} data is being erased; uploads are refused until the erasure is done.`);
    case "running":
      throw new AppError("conflict", "An upload with this Idempotency-Key is still arriving.");
    case "mismatch":
      throw new AppError("unprocessable", "This Idempotency-Key was used for an upload with other bytes.");
    case "dropped":
      throw new UploadDropped();
  }
}

type UploadOutcome =
  | { kind: "stored" | "replay"; row: RawObjectRow }
  | { kind: "gone" | "erasing" | "running" | "mismatch" | "dropped" };

/** One try at keeping an upload, in one transaction: what completeUpload answers depends on it. */
function settleUpload(
  deps: Pick<CoreDeps, "db" | "jobs">,
  upload: { rawObjectId: string; userId: string; provider: string },
  stored: { byteSize: number; sha256: string },
  uploadKey: string,
): Promise<UploadOutcome> {
  return deps.db.$transaction(async (tx): Promise<UploadOutcome> => {
    const userStatus = await lockUserForUpload(tx, upload.userId);
    if (userStatus !== "active") return { kind: "gone" };
    // The erasure request holds the same user row: it either committed before (refuse) or
    // waits for this upload and then erases it with the rest.
    if (await erasureRunning(tx, upload.userId, upload.provider)) return { kind: "erasing" };
    const first = await findRawObjectByUploadKey(tx, upload.userId, upload.provider, uploadKey);
    if (first) {
      if (first.status === "receiving") return { kind: "running" };
      if (first.sha256 !== stored.sha256) return { kind: "mismatch" };
      return { kind: "replay", row: first };
    }
    const row = await markRawObjectStored(tx, upload.rawObjectId, { ...stored, uploadKey });
    if (!row) return { kind: "dropped" };
    await sendEtlJob(deps, row, tx);
    return { kind: "stored", row };
  });
}

/** 410: the user's deletion (or its tenant's) started while the upload arrived; nothing was kept. */
export const deletionStartedMeanwhile = () => new AppError("gone", "The user's deletion started while this upload arrived; nothing was kept.");

/**
 * Whether the user of an upload that failed while its bytes arrived is being deleted or gone:
 * the deletion removes the user's raw folder and rows under the upload, so the write or the
 * heartbeat failed because of it (the upload then answers 410, not a fault to retry). False
 * when that cannot be read now.
 */
export async function userDeletedDuringUpload(deps: Pick<CoreDeps, "db">, userId: string): Promise<boolean> {
  const user = await findUserById(deps.db, userId).catch(() => undefined);
  return user === null || user?.status === "deleting";
}

/**
 * Drops an upload that was refused or broke off: its bytes and its row, unless it was
 * committed (the commit may have reached the database although its answer did not). The row
 * is first marked as being dropped, so no heartbeat revives it and no commit keeps it, then
 * the bytes go, then the row. Never throws: what it cannot do now (the database or the raw
 * store away) the upload sweep does once the upload's heartbeat lapsed.
 */
export async function abandonUpload(deps: Pick<CoreDeps, "db" | "rawStore">, upload: { rawObjectId: string; storageKey: string }): Promise<void> {
  try {
    // "gone": the sweep deleted the row already; the bytes, written later, are this upload's alone.
    if ((await markUploadDropped(deps.db, upload.rawObjectId)) === "kept") return;
    await deps.rawStore.delete(upload.storageKey);
    await deleteDroppedUpload(deps.db, upload.rawObjectId);
  } catch {
    // Left to the upload sweep.
  }
}

/** A provider payload larger than this is refused (no API answer of a day's data comes near it). */
export const MAX_PROVIDER_PAYLOAD_BYTES = 64 * 1024 * 1024;

/**
 * Stores bytes a provider gave (a pull, or a push notification's payload) as a raw object,
 * the way an upload without Idempotency-Key is stored: pending, its ETL job queued in the
 * same transaction. The same bytes of the user and provider already stored are not stored
 * again (`stored: false`). Errors of completeUpload (user being deleted 410, erasure 409) pass.
 */
export async function storeRawPayload(
  deps: Pick<CoreDeps, "db" | "jobs" | "rawStore" | "uploads">,
  target: UploadTarget,
  body: Buffer,
): Promise<{ rawObjectId: string; stored: boolean }> {
  const sha256 = createHash("sha256").update(body).digest("hex");
  const first = await findRawObjectByUploadKey(deps.db, target.userId, target.provider, `sha256:${sha256}`);
  if (first) return { rawObjectId: first.id, stored: false };
  const rawObjectId = randomUUID();
  const storageKey = `${target.userId}/${rawObjectId}`;
  await insertReceivingRawObject(deps.db, { id: rawObjectId, storageKey, ...target });
  const upload = { rawObjectId, storageKey, userId: target.userId, provider: target.provider, idempotencyKey: undefined };
  const heartbeat = startUploadHeartbeat(deps, rawObjectId);
  heartbeat.busy();
  try {
    const written = await deps.rawStore.write(storageKey, oneChunk(body), MAX_PROVIDER_PAYLOAD_BYTES);
    const { answer, replayed } = await completeUpload(deps, upload, written);
    return { rawObjectId: answer.upload_id, stored: !replayed };
  } catch (error) {
    await abandonUpload(deps, upload);
    throw error;
  } finally {
    heartbeat.stop();
  }
}

async function* oneChunk(body: Buffer): AsyncGenerator<Uint8Array> {
  yield body;
}
