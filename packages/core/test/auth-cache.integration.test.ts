// Resolved secrets are cached briefly (identity/principal-cache.ts): a revocation in this
// process stops the secret at once, a token stops at its expiry, a change made elsewhere is
// seen within the bound.
import {
  authenticate,
  createAdminKey,
  createTenant,
  createTenantApiKey,
  createUser,
  mintUserToken,
  PRINCIPAL_CACHE_TTL_MS,
  revokeAdminKeyById,
  revokeTenantApiKeyById,
} from "@svc/core";
import { createDatabase, type Database } from "@svc/db";
import { createTestDatabase } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let db: Database;

beforeAll(async () => {
  db = createDatabase(await createTestDatabase(), { max: 2 });
});
afterAll(() => db?.$disconnect());

describe("authentication with the principal cache", () => {
  it("refuses a tenant key at once after it is revoked in this process", async () => {
    const tenant = await createTenant(db, "revoke-in-process");
    const spare = await createTenantApiKey(db, tenant.tenant_id, "spare");
    const resolved = await authenticate(db, tenant.api_key);
    expect(resolved).toMatchObject({ kind: "tenant", tenantId: tenant.tenant_id });
    await revokeTenantApiKeyById(db, tenant.tenant_id, (resolved as { keyId: string }).keyId);
    await expect(authenticate(db, tenant.api_key)).rejects.toMatchObject({ code: "unauthorized" });
    expect(await authenticate(db, spare.api_key)).toMatchObject({ kind: "tenant" });
  });

  it("refuses an admin key at once after it is revoked in this process", async () => {
    const key = await createAdminKey(db, "revoke-in-process");
    expect(await authenticate(db, key.admin_key)).toMatchObject({ kind: "admin" });
    await revokeAdminKeyById(db, key.id);
    await expect(authenticate(db, key.admin_key)).rejects.toMatchObject({ code: "unauthorized" });
  });

  it("refuses a user token at its expiry, even inside the cache's bound", async () => {
    const tenant = await createTenant(db, "token-expiry");
    const user = await createUser(db, tenant.tenant_id, undefined);
    const now = new Date();
    const minted = await mintUserToken(db, tenant.tenant_id, user.id, { scopes: ["read"], ttl_seconds: 1 }, new Date(now.getTime() - 500));
    const expiresAt = new Date(minted.expires_at).getTime();
    expect(expiresAt - now.getTime()).toBeLessThan(PRINCIPAL_CACHE_TTL_MS);
    expect(await authenticate(db, minted.token, now)).toMatchObject({ kind: "user", userId: user.id });
    await expect(authenticate(db, minted.token, new Date(expiresAt))).rejects.toMatchObject({ code: "unauthorized" });
  });

  it("sees a revocation made by another process within the bound", async () => {
    const tenant = await createTenant(db, "revoke-elsewhere");
    const now = new Date();
    expect(await authenticate(db, tenant.api_key, now)).toMatchObject({ kind: "tenant" });
    // As the CLI or another api process revokes: the row changes, this process is not told.
    await db.tenantApiKey.updateMany({ where: { tenantId: tenant.tenant_id }, data: { revokedAt: new Date() } });
    expect(await authenticate(db, tenant.api_key, new Date(now.getTime() + PRINCIPAL_CACHE_TTL_MS - 1))).toMatchObject({ kind: "tenant" });
    await expect(authenticate(db, tenant.api_key, new Date(now.getTime() + PRINCIPAL_CACHE_TTL_MS))).rejects.toMatchObject({ code: "unauthorized" });
  });
});
