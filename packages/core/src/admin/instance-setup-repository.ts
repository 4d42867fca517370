import type { DbClient } from "../platform/index.ts";

/** How many tenants the instance has (first-run setup is open while there are none). */
export function countTenants(db: DbClient): Promise<number> {
  return db.tenant.count();
}

/** How many instance admin keys are not revoked. */
export function countActiveAdminKeys(db: DbClient): Promise<number> {
  return db.adminKey.count({ where: { revokedAt: null } });
}
