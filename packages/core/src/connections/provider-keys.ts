import type { CoreDeps } from "../deps.ts";
import { AppError, type DbClient } from "../platform/index.ts";
import type { Connector, ProviderKeys } from "./providers/connector.ts";
import { isConnector, type ProviderCatalog } from "./providers/provider-catalog.ts";
import {
  applicationIdOf,
  inboundNotificationUrl,
  maskClientId,
  missingRequiredKeys,
  oauthCallbackUrl,
  type ProviderSettings,
} from "./providers/provider-settings.ts";
import { findConnectionsForKeyChange, type KeyChangeTarget } from "./provider-key-change-repository.ts";
import { deleteTenantProviderKeys, findTenantProviderKeys, upsertTenantProviderKeys } from "./provider-keys-repository.ts";
import { type AuditContext, findActiveTenantById, recordAudit } from "../identity/index.ts";
import { moveToNeedsReauth } from "./sync/health-moves.ts";

/** The addresses an admin registers at the provider: the instance's, for every tenant. */
export interface ProviderUrlsDto {
  redirect: string;
  /** null for a provider that sends no notifications. */
  inbound: string | null;
}

/** A tenant's own keys of one provider, as the admin routes show them: never a value. */
export interface TenantProviderKeysDto {
  provider: string;
  set: boolean;
  status: "active" | "error" | "not_set";
  error: string | null;
  client_id: string | null;
  keys: Array<{ name: string; required: boolean; secret: boolean; set: boolean }>;
  urls: ProviderUrlsDto;
  created_at: string | null;
  updated_at: string | null;
  updated_by: string | null;
}

export function providerUrlsOf(connector: Connector, settings: ProviderSettings): ProviderUrlsDto {
  return {
    redirect: oauthCallbackUrl(settings, connector.slug),
    inbound: connector.notifications ? inboundNotificationUrl(settings, connector.slug) : null,
  };
}

/** 404 for a tenant unknown to the instance or being deleted. */
export async function requireTenant(db: DbClient, tenantId: string): Promise<void> {
  if (!(await findActiveTenantById(db, tenantId))) throw new AppError("not_found", "No such tenant.");
}

/** The connector of `slug` that takes keys: 404 when this build does not know it, 409 when it takes none (device or built-in). */
export function keyedConnector(providers: ProviderCatalog, slug: string): Connector {
  const descriptor = providers.find(slug);
  if (!descriptor) throw new AppError("not_found", `This build knows no provider ${slug}.`);
  if (!isConnector(descriptor) || descriptor.builtIn || descriptor.keys.length === 0) {
    throw new AppError("conflict", `The provider ${slug} takes no keys.`);
  }
  return descriptor;
}

/**
 * Keys as a PUT gives them, checked: 400 naming unknown or missing required keys, 422 with
 * the provider's reason when its own rules refuse them. Errors name keys, never values.
 */
export function checkProviderKeys(connector: Connector, keys: ProviderKeys): void {
  const known = new Set(connector.keys.map((spec) => spec.name));
  const unknown = Object.keys(keys).filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new AppError("bad_request", `Unknown keys for ${connector.slug}: ${unknown.join(", ")}. It takes ${[...known].join(", ")}.`);
  }
  const missing = missingRequiredKeys(connector, keys);
  if (missing.length > 0) throw new AppError("bad_request", `Required keys missing: ${missing.join(", ")}.`);
  const refusal = connector.checkKeys?.(keys) ?? null;
  if (refusal) throw new AppError("unprocessable", refusal);
}

/**
 * Moves the active connections a key change leaves without their application to
 * needs_reauth (reason keys_changed, action reconnect), with connection.needs_reauth and
 * connection.broken, in the caller's transaction. Answers how many moved (reauth_required).
 */
export async function moveConnectionsAfterKeyChange(
  tx: DbClient,
  deps: Pick<CoreDeps, "jobs">,
  target: KeyChangeTarget,
): Promise<number> {
  const now = new Date();
  let moved = 0;
  for (const connection of await findConnectionsForKeyChange(tx, target)) {
    if (await moveToNeedsReauth(deps, tx, connection, "keys_changed", now)) moved += 1;
  }
  return moved;
}

async function tenantProviderKeysOf(
  deps: Pick<CoreDeps, "db" | "providers" | "providerConfig">,
  tenantId: string,
  slug: string,
): Promise<TenantProviderKeysDto> {
  await requireTenant(deps.db, tenantId);
  const connector = keyedConnector(deps.providers, slug);
  const own = await deps.providerConfig.tenantKeys(tenantId, connector);
  return {
    provider: slug,
    set: own !== null,
    status: own?.status ?? "not_set",
    error: own?.error ?? null,
    client_id: maskClientId(own?.keys?.CLIENT_ID),
    keys: connector.keys.map((spec) => ({ name: spec.name, required: spec.required, secret: spec.secret, set: Boolean(own?.keys?.[spec.name]) })),
    urls: providerUrlsOf(connector, deps.providerConfig.settings),
    created_at: own?.createdAt.toISOString() ?? null,
    updated_at: own?.updatedAt.toISOString() ?? null,
    updated_by: own?.updatedBy ?? null,
  };
}

/** GET /v1/admin/tenants/{tenant_id}/providers/{provider}/keys, recorded as `config.read`. */
export async function getTenantProviderKeys(
  deps: Pick<CoreDeps, "db" | "providers" | "providerConfig">,
  audit: AuditContext,
  tenantId: string,
  slug: string,
): Promise<TenantProviderKeysDto> {
  const keys = await tenantProviderKeysOf(deps, tenantId, slug);
  await recordAudit(deps.db, audit, "config.read", { tenantId, provider: slug });
  return keys;
}

/**
 * PUT .../keys: replaces the tenant's own keys (sealed). When they name another application
 * than a connection was made with, the connection needs the user's reauth: the tenant's own
 * connections, and the instance's too when the tenant had no keys before.
 */
export async function putTenantProviderKeys(
  deps: CoreDeps,
  audit: AuditContext,
  tenantId: string,
  slug: string,
  keys: ProviderKeys,
): Promise<TenantProviderKeysDto & { reauth_required: number }> {
  await requireTenant(deps.db, tenantId);
  const connector = keyedConnector(deps.providers, slug);
  checkProviderKeys(connector, keys);
  const applicationId = applicationIdOf(connector, keys);
  const reauthRequired = await deps.db.$transaction(async (tx) => {
    const before = await findTenantProviderKeys(tx, tenantId, slug);
    await upsertTenantProviderKeys(tx, {
      tenantId,
      provider: slug,
      sealedKeys: deps.sealer.seal(JSON.stringify(keys)),
      applicationId,
      updatedBy: audit.actor.id,
    });
    await recordAudit(tx, audit, "tenant.provider_keys", { tenantId, provider: slug });
    const keySources = before ? ["tenant"] : ["tenant", "instance"];
    return moveConnectionsAfterKeyChange(tx, deps, { provider: slug, tenantId, keySources, keptApplicationId: applicationId });
  });
  deps.providerConfig.invalidate();
  return { ...(await tenantProviderKeysOf(deps, tenantId, slug)), reauth_required: reauthRequired };
}

/**
 * DELETE .../keys: the tenant runs on the instance's application again, another one, so
 * the connections made with its own keys need the user's reauth.
 */
export async function removeTenantProviderKeys(
  deps: CoreDeps,
  audit: AuditContext,
  tenantId: string,
  slug: string,
): Promise<TenantProviderKeysDto & { reauth_required: number }> {
  await requireTenant(deps.db, tenantId);
  keyedConnector(deps.providers, slug);
  const reauthRequired = await deps.db.$transaction(async (tx) => {
    await recordAudit(tx, audit, "tenant.provider_keys.delete", { tenantId, provider: slug });
    if (!(await deleteTenantProviderKeys(tx, tenantId, slug))) return 0;
    return moveConnectionsAfterKeyChange(tx, deps, { provider: slug, tenantId, keySources: ["tenant"], keptApplicationId: null });
  });
  deps.providerConfig.invalidate();
  return { ...(await tenantProviderKeysOf(deps, tenantId, slug)), reauth_required: reauthRequired };
}
