import type { DbClient } from "../platform/index.ts";

export function insertAdminKey(db: DbClient, input: { name: string; keyHash: string }) {
  return db.adminKey.create({ data: input, select: { id: true, name: true } });
}

export function findActiveAdminKey(db: DbClient, keyHash: string) {
  return db.adminKey.findFirst({ where: { keyHash, revokedAt: null }, select: { id: true } });
}

/** Every admin key, oldest first, revoked ones included; never the hashes. */
export function listAdminKeys(db: DbClient) {
  return db.adminKey.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }], select: { id: true, name: true, createdAt: true, revokedAt: true } });
}

/** Revokes one active admin key; the count revoked (0 or 1). */
export async function revokeAdminKey(db: DbClient, keyId: string, now: Date): Promise<number> {
  const { count } = await db.adminKey.updateMany({ where: { id: keyId, revokedAt: null }, data: { revokedAt: now } });
  return count;
}
