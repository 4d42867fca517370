import { generateSecret, hashSecret } from "../secrets.ts";
import { insertAdminKey } from "../repositories/admin-key-repository.ts";
import type { DbClient } from "../repositories/db-client.ts";

/** Creates an instance admin key (`svc_ak_…`), shown once. */
export async function createAdminKey(db: DbClient, name: string): Promise<{ id: string; name: string; admin_key: string }> {
  const adminKey = generateSecret("adminKey");
  const row = await insertAdminKey(db, { name, keyHash: hashSecret(adminKey) });
  return { id: row.id, name: row.name, admin_key: adminKey };
}
