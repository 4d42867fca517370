import type { Database } from "@svc/db";
import { type DbClient, generateSecret, hashSecret } from "../platform/index.ts";
import { findTenantByName, insertTenantWithKey, lockForTransaction } from "./tenant-repository.ts";
import { tenantNameWasDeleted } from "./tenant-deletion-job-repository.ts";

const BOOTSTRAP_LOCK = 731_001;

export interface CreatedTenant {
  tenant_id: string;
  name: string;
  /** Shown once; only its hash is stored. */
  api_key: string;
}

/** Creates a tenant with its first API key. */
export async function createTenant(db: DbClient, name: string): Promise<CreatedTenant> {
  const apiKey = generateSecret("tenantKey");
  const tenant = await insertTenantWithKey(db, { name, keyName: "initial", keyHash: hashSecret(apiKey) });
  return { tenant_id: tenant.id, name: tenant.name, api_key: apiKey };
}

/**
 * SVC_BOOTSTRAP_TENANT: creates the named tenant on the first start only. Returns the new
 * tenant (with its key, to log once) or undefined when it already existed, or was deleted by
 * an instance admin (a deleted tenant does not come back at the next start).
 */
export async function bootstrapTenant(db: Database, name: string): Promise<CreatedTenant | undefined> {
  return db.$transaction(async (tx) => {
    await lockForTransaction(tx, BOOTSTRAP_LOCK);
    if ((await findTenantByName(tx, name)) || (await tenantNameWasDeleted(tx, name))) return undefined;
    return createTenant(tx, name);
  });
}
