import { randomBytes } from "node:crypto";
import { type DataCategory, sortCategories } from "../records/index.ts";
import { AppError, CreatedAtCursor, type DbClient, decodeCursor, encryptJwe, hashPasscode, JWE_KEY_BYTES, type Page, toPage } from "../platform/index.ts";
import type { CoreDeps } from "../deps.ts";
import { findUserById, lockUserForUpload, requireActiveUser, type UserRow } from "../identity/index.ts";
import {
  dropShareFile,
  findShare,
  insertShare,
  lockShare,
  lockUserShares,
  selectShares,
  selectSharesOfProvider,
  setShareRevoked,
  type ShareListingRow,
  type ShareRow,
} from "./share-repository.ts";
import { emitEvent } from "../events/index.ts";
import { buildShareBundle, DEFAULT_SHARE_LIMITS, type ShareDetail, type ShareLimits } from "./share-bundle.ts";
import { shlinkOf } from "./share-link.ts";

export { DEFAULT_SHARE_LIMITS, SHARE_DETAILS, type ShareDetail, type ShareLimits } from "./share-bundle.ts";
export { parseShlink, shlinkOf, type ShlinkPayload } from "./share-link.ts";

/** Why a share stopped before its expiry. */
export const SHARE_REVOKED_REASONS = ["owner", "consent", "provider_erased", "passcode_attempts"] as const;
export type ShareRevokedReason = (typeof SHARE_REVOKED_REASONS)[number];

/** `active` until it expires (`expired`) or is revoked (`revoked`, which wins). */
export const SHARE_STATUSES = ["active", "expired", "revoked"] as const;
export type ShareStatus = (typeof SHARE_STATUSES)[number];

/** The window a share covers is at most this long. */
export const MAX_SHARE_WINDOW_DAYS = 366;
/** A share expires at most this long after it is made. */
export const MAX_SHARE_LIFETIME_DAYS = 365;
const DAY_MS = 86_400_000;

/** The MIME type of the file a share serves (SMART Health Links). */
export const SHARE_FILE_CONTENT_TYPE = "application/fhir+json";

/** A share as listed (spec "Share link (listing)"). */
export interface ShareDto {
  id: string;
  label: string;
  categories: DataCategory[];
  start: string;
  end: string;
  expires_at: string;
  passcode: boolean;
  passcode_failures: number;
  status: ShareStatus;
  revoked_at: string | null;
  revoked_reason: ShareRevokedReason | null;
  observations: number;
  file_bytes: number;
  accesses: number;
  last_accessed_at: string | null;
  created_at: string;
}

/** What creating a share answers once: the share, and the link carrying the key (never stored). */
export interface CreatedShare {
  share: ShareDto;
  /** The viewer URL: `{public_url}/share#shlink:/…`. */
  link: string;
  /** The bare SMART Health Link: `shlink:/…`. */
  shlink: string;
}

export interface ShareInput {
  label: string;
  categories: readonly DataCategory[];
  start: string;
  end: string;
  expires_at: string;
  passcode?: string | undefined;
  /** `daily` (default): daily aggregates of frequent samples; `full`: every sample. */
  detail?: ShareDetail | undefined;
}

export function shareStatusOf(row: Pick<ShareRow, "revokedAt" | "expiresAt">, now = new Date()): ShareStatus {
  if (row.revokedAt !== null) return "revoked";
  return row.expiresAt.getTime() <= now.getTime() ? "expired" : "active";
}

export function toShareDto(row: ShareListingRow, now = new Date()): ShareDto {
  return {
    id: row.id,
    label: row.label,
    // Stored from the checked list, in the catalog's order.
    categories: sortCategories(row.categories),
    start: row.windowStart.toISOString(),
    end: row.windowEnd.toISOString(),
    expires_at: row.expiresAt.toISOString(),
    passcode: row.hasPasscode,
    passcode_failures: row.passcodeFailures,
    status: shareStatusOf(row, now),
    revoked_at: row.revokedAt?.toISOString() ?? null,
    // Only this service writes reasons, always one of the list.
    revoked_reason: row.revokedReason as ShareRevokedReason | null,
    observations: row.observations,
    file_bytes: row.fileBytes,
    accesses: row.accesses,
    last_accessed_at: row.lastAccessedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

const shareNotFound = () => new AppError("not_found", "No such share.");

function parseTime(name: string, value: string): Date {
  const time = new Date(value);
  if (Number.isNaN(time.getTime())) throw new AppError("bad_request", `${name} must be an RFC 3339 time`);
  return time;
}

/** The checked window and expiry of a new share (a passcode is never quoted in an error). */
function checkShare(input: ShareInput, now: Date) {
  const start = parseTime("start", input.start);
  const end = parseTime("end", input.end);
  const expiresAt = parseTime("expires_at", input.expires_at);
  if (end <= start) throw new AppError("bad_request", "end must be after start");
  if (end.getTime() - start.getTime() > MAX_SHARE_WINDOW_DAYS * DAY_MS) {
    throw new AppError("bad_request", `The window from start to end spans at most ${MAX_SHARE_WINDOW_DAYS} days`);
  }
  if (expiresAt <= now) throw new AppError("bad_request", "expires_at must be in the future");
  if (expiresAt.getTime() - now.getTime() > MAX_SHARE_LIFETIME_DAYS * DAY_MS) {
    throw new AppError("bad_request", `expires_at is at most ${MAX_SHARE_LIFETIME_DAYS} days ahead`);
  }
  const categories = sortCategories(input.categories);
  if (categories.length === 0) throw new AppError("bad_request", "categories must name at least one data category");
  return { start, end, expiresAt, categories };
}

function writeShareEvent(
  tx: DbClient,
  jobs: CoreDeps["jobs"],
  user: UserRow,
  event:
    | { type: "share.created"; shareId: string; categories: string[]; expiresAt: Date; passcode: boolean }
    | { type: "share.revoked"; shareId: string; reason: ShareRevokedReason }
    | { type: "share.accessed"; shareId: string },
) {
  const about = { user_id: user.id, external_ref: user.externalRef, share_id: event.shareId };
  switch (event.type) {
    case "share.created":
      return emitEvent(tx, jobs, {
        tenantId: user.tenantId,
        userId: user.id,
        type: event.type,
        data: { ...about, categories: event.categories, expires_at: event.expiresAt.toISOString(), passcode: event.passcode },
      });
    case "share.revoked":
      return emitEvent(tx, jobs, { tenantId: user.tenantId, userId: user.id, type: event.type, data: { ...about, reason: event.reason } });
    case "share.accessed":
      return emitEvent(tx, jobs, { tenantId: user.tenantId, userId: user.id, type: event.type, data: about });
  }
}

/**
 * Marks a share revoked, drops its file and writes share.revoked, in the caller's transaction;
 * a share revoked already (by a transaction that committed meanwhile) keeps its first reason
 * and gets no second event. Whether this call revoked it.
 */
export async function revokeShareRow(tx: DbClient, jobs: CoreDeps["jobs"], user: UserRow, shareId: string, reason: ShareRevokedReason, now = new Date()): Promise<boolean> {
  const revoked = await setShareRevoked(tx, user.id, shareId, reason, now);
  if (revoked) await writeShareEvent(tx, jobs, user, { type: "share.revoked", shareId, reason });
  return revoked;
}

/** The manifest URL of a share (SMART Health Links): POST it to get the file. */
export const shareManifestUrl = (publicUrl: string, shareId: string) => `${publicUrl}/share/${shareId}/manifest`;

/** Writes share.accessed: for the open route. */
export const writeShareAccessed = (tx: DbClient, jobs: CoreDeps["jobs"], user: UserRow, shareId: string) =>
  writeShareEvent(tx, jobs, user, { type: "share.accessed", shareId });

/**
 * Create a share link: builds a FHIR Bundle of the user's records of the categories in the
 * window (daily aggregates of frequent samples unless `detail` is `full`), compresses and
 * encrypts it (JWE, DEF + A256GCM) with a fresh random key, stores only the ciphertext, and
 * answers the link carrying the key once. The passcode is kept as a salted scrypt hash.
 * share.created is written in the same transaction.
 */
export async function createShare(
  { db, jobs, instance }: Pick<CoreDeps, "db" | "jobs" | "instance">,
  tenantId: string,
  userId: string,
  input: ShareInput,
  limits: ShareLimits = DEFAULT_SHARE_LIMITS,
  now = new Date(),
): Promise<CreatedShare> {
  const checked = checkShare(input, now);
  await requireActiveUser(db, tenantId, userId);
  const passcodeHash = input.passcode === undefined ? null : await hashPasscode(input.passcode);
  const key = randomBytes(JWE_KEY_BYTES);
  const publicUrl = instance.publicUrl();

  const row = await db.$transaction(
    async (tx) => {
      await lockUserForUpload(tx, userId);
      const user = await requireActiveUser(tx, tenantId, userId);
      // An erasure or a consent revocation finishing meanwhile either sees this share or ran before its records were read.
      await lockUserShares(tx, user.id);
      const bundle = await buildShareBundle(tx, user.id, { ...checked, detail: input.detail ?? "daily" }, { codeSystemBase: instance.fhirCodeSystemBase() }, limits);
      // Compressed before encryption (zip DEF): FHIR JSON shrinks about tenfold.
      const file = Buffer.from(encryptJwe(bundle.json, key, { contentType: SHARE_FILE_CONTENT_TYPE, compress: true }), "ascii");
      const created = await insertShare(tx, {
        tenantId: user.tenantId,
        userId: user.id,
        label: input.label,
        categories: checked.categories,
        windowStart: checked.start,
        windowEnd: checked.end,
        expiresAt: checked.expiresAt,
        passcodeHash,
        providers: bundle.providers,
        observations: bundle.observations,
        fileBytes: file.length,
        file,
      });
      await writeShareEvent(tx, jobs, user, {
        type: "share.created",
        shareId: created.id,
        categories: checked.categories,
        expiresAt: checked.expiresAt,
        passcode: passcodeHash !== null,
      });
      return created;
    },
    { timeout: 60_000 },
  );

  const shlink = shlinkOf({
    url: shareManifestUrl(publicUrl, row.id),
    key: key.toString("base64url"),
    exp: Math.floor(row.expiresAt.getTime() / 1000),
    ...(passcodeHash !== null && { flag: "P" }),
    label: row.label,
    v: 1,
  });
  return { share: toShareDto(row, now), link: `${publicUrl}/share#${shlink}`, shlink };
}

/** GET /v1/users/{id}/shares: every share of the user, oldest first, by (created_at, id). */
export async function listShares(db: DbClient, tenantId: string, userId: string, page: { cursor?: string | undefined; limit: number }): Promise<Page<ShareDto>> {
  const after = page.cursor === undefined ? undefined : decodeCursor(page.cursor, CreatedAtCursor);
  const user = await requireActiveUser(db, tenantId, userId);
  const rows = await selectShares(db, { userId: user.id, after, limit: page.limit });
  const now = new Date();
  return toPage(rows, page.limit, (row) => toShareDto(row, now), (row) => ({ t: row.createdAt.toISOString(), id: row.id }));
}

/** GET /v1/users/{id}/shares/{share_id}. */
export async function getShare(db: DbClient, tenantId: string, userId: string, shareId: string): Promise<ShareDto> {
  const user = await requireActiveUser(db, tenantId, userId);
  const row = await findShare(db, user.id, shareId);
  if (!row) throw shareNotFound();
  return toShareDto(row);
}

/**
 * POST /v1/users/{id}/shares/{share_id}/revoke: the owner stops the link (reason `owner`),
 * its file is dropped and share.revoked written. A share already revoked, for any reason, is
 * answered as it is, with no event; an expired one is marked revoked too (its file dropped), with no
 * event (it already stopped).
 */
export async function revokeShare({ db, jobs }: Pick<CoreDeps, "db" | "jobs">, tenantId: string, userId: string, shareId: string): Promise<ShareDto> {
  return db.$transaction(async (tx) => {
    const user = await requireActiveUser(tx, tenantId, userId);
    await lockShare(tx, user.id, shareId);
    const row = await findShare(tx, user.id, shareId);
    if (!row) throw shareNotFound();
    if (row.revokedAt !== null) return toShareDto(row);
    // An expired share already stopped: it is marked revoked and loses its file, without share.revoked.
    if (shareStatusOf(row) === "expired") await setShareRevoked(tx, user.id, row.id, "owner", new Date());
    else await revokeShareRow(tx, jobs, user, row.id, "owner");
    const revoked = await findShare(tx, user.id, row.id);
    if (!revoked) throw shareNotFound();
    return toShareDto(revoked);
  });
}

/**
 * Revokes, in the caller's transaction, the user's shares whose file holds records of the
 * provider (and, when categories are given, whose categories overlap them): each loses its
 * file and gets share.revoked with the reason. A share already expired only loses its file
 * (it stopped at its expiry: no event). Called when a category's consent is revoked
 * (`consent`) and when a provider erasure finishes (`provider_erased`). The number revoked.
 */
export async function revokeSharesOf(
  tx: DbClient,
  target: { userId: string; provider: string; categories?: readonly string[] | undefined },
  reason: "consent" | "provider_erased",
  /** The job queue share.revoked deliveries are queued on (in `tx`). */
  jobs: CoreDeps["jobs"],
): Promise<number> {
  await lockUserShares(tx, target.userId);
  const rows = await selectSharesOfProvider(tx, target);
  if (rows.length === 0) return 0;
  const user = await findUserById(tx, target.userId);
  if (!user) return 0;
  const now = new Date();
  let revoked = 0;
  for (const row of rows) {
    if (shareStatusOf(row, now) === "expired") {
      await dropShareFile(tx, row);
      continue;
    }
    if (await revokeShareRow(tx, jobs, user, row.id, reason, now)) revoked += 1;
  }
  return revoked;
}
