import type { Database } from "@svc/db";
import { AppError, generateSecret, hashSecret } from "../platform/index.ts";
import { forgetCachedIdentities } from "./principal-cache.ts";
import { findActiveTenantById, lockForTransaction } from "./tenant-repository.ts";
import { countActiveTenantApiKeys, insertTenantApiKey, listTenantApiKeys, revokeTenantApiKey } from "./tenant-api-key-repository.ts";

// Rotation of a tenant's API keys from the command line: create a new key, move the tenant's
// backend to it, revoke the old one. Revocation applies to the next request in this process and
// within the principal cache's bound (principal-cache.ts) in every other.

const TENANT_KEYS_LOCK = 731_002;

export interface TenantApiKeyInfo {
  id: string;
  name: string;
  created_at: Date;
  revoked_at: Date | null;
}

const info = (row: { id: string; name: string; createdAt: Date; revokedAt: Date | null }): TenantApiKeyInfo => ({
  id: row.id,
  name: row.name,
  created_at: row.createdAt,
  revoked_at: row.revokedAt,
});

async function requireTenant(db: Database, tenantId: string): Promise<void> {
  if (!(await findActiveTenantById(db, tenantId))) throw new AppError("not_found", `No tenant with id ${tenantId}.`);
}

/** A further API key of the tenant; the key is shown once, only its hash is stored. */
export async function createTenantApiKey(db: Database, tenantId: string, name: string): Promise<TenantApiKeyInfo & { api_key: string }> {
  await requireTenant(db, tenantId);
  const apiKey = generateSecret("tenantKey");
  return { ...info(await insertTenantApiKey(db, { tenantId, name, keyHash: hashSecret(apiKey) })), api_key: apiKey };
}

export async function listTenantApiKeyInfo(db: Database, tenantId: string): Promise<TenantApiKeyInfo[]> {
  await requireTenant(db, tenantId);
  return (await listTenantApiKeys(db, tenantId)).map(info);
}

/** Revokes a key of the tenant; refuses the last active one, which would lock the tenant out. */
export async function revokeTenantApiKeyById(db: Database, tenantId: string, keyId: string, now = new Date()): Promise<void> {
  await requireTenant(db, tenantId);
  await db.$transaction(async (tx) => {
    // Two revocations at once must not both see another active key.
    await lockForTransaction(tx, TENANT_KEYS_LOCK);
    const keys = await listTenantApiKeys(tx, tenantId);
    const key = keys.find((candidate) => candidate.id === keyId);
    if (!key) throw new AppError("not_found", `The tenant has no key with id ${keyId}.`);
    if (key.revokedAt) throw new AppError("conflict", `The key ${keyId} is already revoked.`);
    if ((await countActiveTenantApiKeys(tx, tenantId)) <= 1) {
      throw new AppError("conflict", "This is the tenant's last active key: create a new key first, then revoke this one.");
    }
    await revokeTenantApiKey(tx, tenantId, keyId, now);
  });
  forgetCachedIdentities({ keyId });
}
