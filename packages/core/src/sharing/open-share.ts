import { verifyPasscode } from "../platform/index.ts";
import type { CoreDeps } from "../deps.ts";
import { addPasscodeFailure, addShareAccess, lockShareForOpen } from "./share-repository.ts";
import { findUserById } from "../identity/index.ts";
import type { ShareSecretsRow } from "./share-repository.ts";
import { revokeShareRow, SHARE_FILE_CONTENT_TYPE, shareStatusOf, writeShareAccessed, type ShareRevokedReason } from "./shares.ts";

/** Wrong passcodes a share takes; the last one revokes it (reason `passcode_attempts`). */
export const MAX_PASSCODE_FAILURES = 10;

/** How long the `location` of a file (when too large to embed) can be fetched. */
export const SHARE_FILE_TICKET_MS = 60 * 60 * 1000;

export type ShareManifestFile = { contentType: string; embedded: string } | { contentType: string; location: string };

/**
 * Why a share cannot be opened (a 404): revoked (and why), expired, or unknown (no such
 * share, or its user is no longer active). Only someone holding the link knows the share's id.
 */
export type ShareGone = { status: "revoked"; reason: ShareRevokedReason } | { status: "expired" } | { status: "unknown" };

/** What a SMART Health Links manifest request answers. */
export type ShareOpening =
  | { kind: "manifest"; manifest: { files: ShareManifestFile[] } }
  /** The passcode was missing or wrong: 401 with the attempts left (0: the share is now revoked). */
  | { kind: "passcode"; remainingAttempts: number }
  | { kind: "gone"; gone: ShareGone };

/** What a GET of a file `location` answers. */
export type ShareFileServing = { kind: "file"; jwe: string } | { kind: "gone"; gone: ShareGone };

const UNKNOWN: ShareGone = { status: "unknown" };

/** Why the share cannot be opened now; null when it can. */
function goneOf(share: ShareSecretsRow | null, now: Date): ShareGone | null {
  if (!share) return UNKNOWN;
  // Only this service writes reasons, always one of the list.
  if (share.revokedAt !== null) return { status: "revoked", reason: share.revokedReason as ShareRevokedReason };
  if (shareStatusOf(share, now) === "expired") return { status: "expired" };
  return share.file === null ? UNKNOWN : null;
}

/**
 * A recipient opens a share (POST of the manifest URL): `gone` (a 404 saying why) for a share
 * unknown, revoked, expired or of a user no longer active. With a passcode, a missing one answers 401 without
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
    const gone = goneOf(share, now);
    if (gone || !share?.file) return { kind: "gone", gone: gone ?? UNKNOWN };
    const user = await findUserById(tx, share.userId);
    if (user?.status !== "active") return { kind: "gone", gone: UNKNOWN };

    if (share.passcodeHash !== null) {
      if (request.passcode === undefined) return { kind: "passcode", remainingAttempts: Math.max(0, MAX_PASSCODE_FAILURES - share.passcodeFailures) };
      if (!(await verifyPasscode(request.passcode, share.passcodeHash))) {
        const failures = await addPasscodeFailure(tx, share);
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
    await addShareAccess(tx, share, now);
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
 * an access with share.accessed. `gone` (a 404) when the ticket is not this share's or expired,
 * or the share is no longer active.
 */
export async function serveShareFile(
  { db, jobs, sealer }: Pick<CoreDeps, "db" | "jobs" | "sealer">,
  shareId: string,
  ticket: string,
  now = new Date(),
): Promise<ShareFileServing> {
  if (!ticketIsFor(sealer, ticket, shareId, now)) return { kind: "gone", gone: UNKNOWN };
  return db.$transaction(async (tx) => {
    const share = await lockShareForOpen(tx, shareId);
    const gone = goneOf(share, now);
    if (gone || !share?.file) return { kind: "gone", gone: gone ?? UNKNOWN };
    const user = await findUserById(tx, share.userId);
    if (user?.status !== "active") return { kind: "gone", gone: UNKNOWN };
    await addShareAccess(tx, share, now);
    await writeShareAccessed(tx, jobs, user, share.id);
    return { kind: "file", jwe: Buffer.from(share.file).toString("ascii") };
  });
}
