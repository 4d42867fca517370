import { AppError, type DbClient, generateSecret, hashSecret } from "../platform/index.ts";
import { insertAdminKey, listAdminKeys, revokeAdminKey } from "./admin-key-repository.ts";
import { forgetCachedIdentities } from "./principal-cache.ts";

/** Creates an instance admin key (`svc_ak_…`), shown once. */
export async function createAdminKey(db: DbClient, name: string): Promise<{ id: string; name: string; admin_key: string }> {
  const adminKey = generateSecret("adminKey");
  const row = await insertAdminKey(db, { name, keyHash: hashSecret(adminKey) });
  return { id: row.id, name: row.name, admin_key: adminKey };
}

export async function listAdminKeyInfo(db: DbClient): Promise<{ id: string; name: string; created_at: Date; revoked_at: Date | null }[]> {
  return (await listAdminKeys(db)).map((row) => ({ id: row.id, name: row.name, created_at: row.createdAt, revoked_at: row.revokedAt }));
}

/**
 * Revokes an instance admin key; its next request is refused in this process, and in every
 * other within the principal cache's bound (principal-cache.ts).
 */
export async function revokeAdminKeyById(db: DbClient, keyId: string, now = new Date()): Promise<void> {
  if ((await revokeAdminKey(db, keyId, now)) === 0) throw new AppError("not_found", `No active admin key with id ${keyId}.`);
  forgetCachedIdentities({ adminKeyId: keyId });
}
