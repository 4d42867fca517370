import type { CreatedAtCursor, DbClient } from "../platform/index.ts";

/** What the listing shows: never the file or the passcode hash. */
const shareFields = {
  id: true,
  tenantId: true,
  userId: true,
  label: true,
  categories: true,
  windowStart: true,
  windowEnd: true,
  expiresAt: true,
  passcodeHash: false,
  passcodeFailures: true,
  providers: true,
  revokedAt: true,
  revokedReason: true,
  observations: true,
  fileBytes: true,
  accesses: true,
  lastAccessedAt: true,
  createdAt: true,
} as const;

export interface ShareRow {
  id: string;
  tenantId: string;
  userId: string;
  label: string;
  categories: string[];
  windowStart: Date;
  windowEnd: Date;
  expiresAt: Date;
  passcodeFailures: number;
  providers: string[];
  revokedAt: Date | null;
  revokedReason: string | null;
  observations: number;
  fileBytes: number;
  accesses: number;
  lastAccessedAt: Date | null;
  createdAt: Date;
}

/** What names one share row. */
export type ShareKey = Pick<ShareRow, "userId" | "id">;

/** A share row with whether it has a passcode (the listing's boolean). */
export type ShareListingRow = ShareRow & { hasPasscode: boolean };

/** What opening a share needs besides the listing: the passcode hash and the encrypted file. */
export type ShareSecretsRow = ShareRow & { passcodeHash: string | null; file: Uint8Array | null };

export interface ShareWrite {
  tenantId: string;
  userId: string;
  label: string;
  categories: string[];
  windowStart: Date;
  windowEnd: Date;
  expiresAt: Date;
  passcodeHash: string | null;
  providers: string[];
  observations: number;
  fileBytes: number;
  file: Uint8Array;
}

const withPasscodeFlag = <T extends ShareRow & { passcodeHash: string | null }>({ passcodeHash, ...row }: T) => ({
  ...row,
  hasPasscode: passcodeHash !== null,
});

const listingSelect = { ...shareFields, passcodeHash: true } as const;

/**
 * Serializes the share changes of one user: creating a share (which reads the records it
 * holds) and revoking shares because a provider's data or a category's consent went
 * (revokeSharesOf). A share built while an erasure finishes is either seen and revoked by it,
 * or built after its deletes committed.
 */
export async function lockUserShares(db: DbClient, userId: string): Promise<void> {
  await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`shares:${userId}`}, 0))`;
}

export async function insertShare(db: DbClient, share: ShareWrite): Promise<ShareListingRow> {
  const { file, ...rest } = share;
  return withPasscodeFlag(await db.share.create({ data: { ...rest, file: Buffer.from(file) }, select: listingSelect }));
}

export async function findShare(db: DbClient, userId: string, shareId: string): Promise<ShareListingRow | null> {
  const row = await db.share.findFirst({ where: { id: shareId, userId }, select: listingSelect });
  return row && withPasscodeFlag(row);
}

/** The share with its secrets, its row held until the transaction ends (opens of one share run one after the other). */
export async function lockShareForOpen(db: DbClient, shareId: string): Promise<ShareSecretsRow | null> {
  const rows = await db.$queryRaw<Array<{ id: string }>>`SELECT id FROM shares WHERE id = ${shareId}::uuid FOR UPDATE`;
  if (rows.length === 0) return null;
  const row = await db.share.findFirst({ where: { id: shareId }, select: { ...shareFields, passcodeHash: true, file: true } });
  return row && { ...row, file: row.file === null ? null : new Uint8Array(row.file) };
}

/** Holds the share's row until the transaction ends. */
export async function lockShare(db: DbClient, userId: string, shareId: string): Promise<void> {
  await db.$queryRaw`SELECT id FROM shares WHERE id = ${shareId}::uuid AND user_id = ${userId}::uuid FOR UPDATE`;
}

/** A user's shares oldest first, after the cursor; one row more than `limit`. */
export async function selectShares(db: DbClient, q: { userId: string; after: CreatedAtCursor | undefined; limit: number }): Promise<ShareListingRow[]> {
  const afterDate = q.after && new Date(q.after.t);
  const rows = await db.share.findMany({
    where: {
      userId: q.userId,
      ...(afterDate && q.after && { OR: [{ createdAt: { gt: afterDate } }, { createdAt: afterDate, id: { gt: q.after.id } }] }),
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: q.limit + 1,
    select: listingSelect,
  });
  return rows.map(withPasscodeFlag);
}

/**
 * Marks the share revoked and drops its file, unless it is revoked already (its first reason
 * stays): whether this call revoked it. The condition is checked again on the row's newest
 * version when another transaction revoked it meanwhile.
 */
export async function setShareRevoked(db: DbClient, userId: string, shareId: string, reason: string, at: Date): Promise<boolean> {
  const { count } = await db.share.updateMany({ where: { userId, id: shareId, revokedAt: null }, data: { revokedAt: at, revokedReason: reason, file: null } });
  return count > 0;
}

/** Counts one more wrong passcode; the new count. */
export async function addPasscodeFailure(db: DbClient, share: ShareKey): Promise<number> {
  const row = await db.share.update({ where: { userId_id: { userId: share.userId, id: share.id } }, data: { passcodeFailures: { increment: 1 } }, select: { passcodeFailures: true } });
  return row.passcodeFailures;
}

/** Counts one served file. */
export async function addShareAccess(db: DbClient, share: ShareKey, at: Date): Promise<void> {
  await db.share.update({ where: { userId_id: { userId: share.userId, id: share.id } }, data: { accesses: { increment: 1 }, lastAccessedAt: at }, select: { id: true } });
}

/**
 * The user's shares not revoked whose providers include `provider` (and whose categories
 * overlap `categories`, when given), expired ones included.
 */
export function selectSharesOfProvider(
  db: DbClient,
  q: { userId: string; provider: string; categories?: readonly string[] | undefined },
): Promise<ShareRow[]> {
  return db.share.findMany({
    where: {
      userId: q.userId,
      revokedAt: null,
      providers: { has: q.provider },
      ...(q.categories !== undefined && { categories: { hasSome: [...q.categories] } }),
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: shareFields,
  });
}

/** Drops the file of an expired share (its status stays expired). */
export async function dropShareFile(db: DbClient, share: ShareKey): Promise<void> {
  await db.share.update({ where: { userId_id: { userId: share.userId, id: share.id } }, data: { file: null }, select: { id: true } });
}
