import { verifyPasscode } from "../../crypto/passcode.ts";
import type { CoreDeps } from "../../deps.ts";
import { AppError } from "../../errors/app-error.ts";
import { addPasscodeFailure, addShareAccess, lockShareForOpen } from "../../repositories/share-repository.ts";
import { findUserById } from "../../repositories/user-repository.ts";
import { revokeShareRow, SHARE_FILE_CONTENT_TYPE, shareStatusOf, writeShareAccessed } from "../shares.ts";

/** Wrong passcodes a share takes; the last one revokes it (reason `passcode_attempts`). */
export const MAX_PASSCODE_FAILURES = 10;

/** How long the `location` of a file (when too large to embed) can be fetched. */
export const SHARE_FILE_TICKET_MS = 60 * 60 * 1000;

export type ShareManifestFile = { contentType: string; embedded: string } | { contentType: string; location: string };

/** What a SMART Health Links manifest request answers. */
export type ShareOpening =
  | { kind: "manifest"; manifest: { files: ShareManifestFile[] } }
  /** The passcode was missing or wrong: 401 with the attempts left (0: the share is now revoked). */
  | { kind: "passcode"; remainingAttempts: number };

const gone = () => new AppError("not_found", "No such share, or it expired or was revoked.");

/**
 * A recipient opens a share (POST of the manifest URL): 404 for a share unknown, revoked,
 * expired or of a user no longer active. With a passcode, a missing one answers 401 without
 * counting; a wrong one counts a failure (the MAX_PASSCODE_FAILURES-th revokes the share with
 * `passcode_attempts` and share.revoked). Otherwise the manifest embeds the encrypted file,
 * the access is counted and share.accessed written. The share's row is held meanwhile, so
 * guesses sent at once are counted one after the other.
 */
export async function openShareManifest(
  { db, jobs, sealer, instance }: Pick<CoreDeps, "db" | "jobs" | "sealer" | "instance">,
  shareId: string,
  request: { passcode?: string | undefined; embeddedLengthMax?: number | undefined },
  now = new Date(),
): Promise<ShareOpening> {
  return db.$transaction(async (tx) => {
    const share = await lockShareForOpen(tx, shareId);
    if (!share || share.file === null || shareStatusOf(share, now) !== "active") throw gone();
    const user = await findUserById(tx, share.userId);
    if (user?.status !== "active") throw gone();

    if (share.passcodeHash !== null) {
      if (request.passcode === undefined) return { kind: "passcode", remainingAttempts: Math.max(0, MAX_PASSCODE_FAILURES - share.passcodeFailures) };
      if (!(await verifyPasscode(request.passcode, share.passcodeHash))) {
        const failures = await addPasscodeFailure(tx, share.id);
        if (failures >= MAX_PASSCODE_FAILURES) await revokeShareRow(tx, jobs, user, share.id, "passcode_attempts", now);
        return { kind: "passcode", remainingAttempts: Math.max(0, MAX_PASSCODE_FAILURES - failures) };
      }
    }

    if (request.embeddedLengthMax !== undefined && share.file.length > request.embeddedLengthMax) {
      // Too large to embed for this client: a short-lived URL of the file (served and counted by serveShareFile).
      const ticket = sealer.seal(JSON.stringify({ share_id: share.id, exp: now.getTime() + SHARE_FILE_TICKET_MS }));
      const location = `${instance.publicUrl()}/share/${share.id}/file?t=${encodeURIComponent(ticket)}`;
      return { kind: "manifest", manifest: { files: [{ contentType: SHARE_FILE_CONTENT_TYPE, location }] } };
    }
    await addShareAccess(tx, share.id, now);
    await writeShareAccessed(tx, jobs, user, share.id);
    return { kind: "manifest", manifest: { files: [{ contentType: SHARE_FILE_CONTENT_TYPE, embedded: Buffer.from(share.file).toString("ascii") }] } };
  });
}

/** Whether a file `location`'s ticket is this share's and not expired. */
function ticketIsFor(sealer: CoreDeps["sealer"], ticket: string, shareId: string, now: Date): boolean {
  try {
    const claims = JSON.parse(sealer.open(ticket)) as { share_id?: unknown; exp?: unknown };
    return claims.share_id === shareId && typeof claims.exp === "number" && claims.exp > now.getTime();
  } catch {
    return false;
  }
}

/**
 * GET of a file `location` a manifest answered: the encrypted file (JWE compact), counted as
 * an access with share.accessed. 404 when the ticket is not this share's or expired, or the
 * share is no longer active.
 */
export async function serveShareFile(
  { db, jobs, sealer }: Pick<CoreDeps, "db" | "jobs" | "sealer">,
  shareId: string,
  ticket: string,
  now = new Date(),
): Promise<string> {
  if (!ticketIsFor(sealer, ticket, shareId, now)) throw gone();
  return db.$transaction(async (tx) => {
    const share = await lockShareForOpen(tx, shareId);
    if (!share || share.file === null || shareStatusOf(share, now) !== "active") throw gone();
    const user = await findUserById(tx, share.userId);
    if (user?.status !== "active") throw gone();
    await addShareAccess(tx, share.id, now);
    await writeShareAccessed(tx, jobs, user, share.id);
    return Buffer.from(share.file).toString("ascii");
  });
}
