import { createHash, randomUUID } from "node:crypto";
import { AppError } from "../errors/app-error.ts";
import type { CoreDeps } from "../deps.ts";
import {
  countReceivingUploads,
  deleteRawObjectRow,
  erasureRunning,
  findRawObjectByUploadKey,
  insertReceivingRawObject,
  lockUserForUpload,
  markRawObjectStored,
  type RawObjectRow,
} from "../repositories/raw-object-repository.ts";
import type { DbClient } from "../repositories/db-client.ts";
import { isUniqueViolation } from "../repositories/prisma-errors.ts";
import { requireProviderOnForTenant } from "./tenant-providers.ts";

/** Uploads of one user whose bytes may arrive at the same time (spec: one shared limit). */
export const UPLOADS_IN_FLIGHT_PER_USER = 4;
/** An upload still receiving after this long is taken to have died and stops counting. */
export const RECEIVING_TIMEOUT_MS = 15 * 60_000;

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
 * above the uploads in flight. Reserves its raw object.
 */
export async function beginUpload(
  db: DbClient,
  tenantId: string,
  target: UploadTarget,
): Promise<{ rawObjectId: string; storageKey: string }> {
  await requireProviderOnForTenant(db, tenantId, target.provider);
  if (await erasureRunning(db, target.userId, target.provider)) {
    throw new AppError("conflict", `The user's ${target.provider} data is being erased; uploads are refused until the erasure is done.`);
  }
  const inFlight = await countReceivingUploads(db, target.userId, new Date(Date.now() - RECEIVING_TIMEOUT_MS));
  if (inFlight >= UPLOADS_IN_FLIGHT_PER_USER) {
    throw new AppError("too_many_requests", `At most ${UPLOADS_IN_FLIGHT_PER_USER} uploads of a user may be in flight; retry when one is done.`, {
      headers: { "Retry-After": "5" },
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
 * whose deletion started while the bytes arrived gets 410 and nothing is kept. Otherwise
 * the raw object turns pending and its ETL job is queued in the same transaction.
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
      throw new AppError("gone", "The user's deletion started while this upload arrived; nothing was kept.");
    case "erasing":
      throw new AppError("conflict", `The user's ${upload.provider} data is being erased; uploads are refused until the erasure is done.`);
    case "running":
      throw new AppError("conflict", "An upload with this Idempotency-Key is still arriving.");
    case "mismatch":
      throw new AppError("unprocessable", "This Idempotency-Key was used for an upload with other bytes.");
  }
}

type UploadOutcome =
  | { kind: "stored" | "replay"; row: RawObjectRow }
  | { kind: "gone" | "erasing" | "running" | "mismatch" };

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
    await deps.jobs.send("etl-raw-object", { raw_object_id: row.id }, tx);
    return { kind: "stored", row };
  });
}

/** Drops an upload that was refused or broke off: its bytes and its row. */
export async function abandonUpload(deps: Pick<CoreDeps, "db" | "rawStore">, upload: { rawObjectId: string; storageKey: string }) {
  await deps.rawStore.delete(upload.storageKey);
  await deleteRawObjectRow(deps.db, upload.rawObjectId);
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
  deps: Pick<CoreDeps, "db" | "jobs" | "rawStore">,
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
  let written: { byteSize: number; sha256: string };
  try {
    written = await deps.rawStore.write(storageKey, oneChunk(body), MAX_PROVIDER_PAYLOAD_BYTES);
  } catch (error) {
    await abandonUpload(deps, upload);
    throw error;
  }
  const { answer, replayed } = await completeUpload(deps, upload, written);
  return { rawObjectId: answer.upload_id, stored: !replayed };
}

async function* oneChunk(body: Buffer): AsyncGenerator<Uint8Array> {
  yield body;
}
