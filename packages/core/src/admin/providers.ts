import type { CoreDeps } from "../deps.ts";
import { AppError } from "../platform/index.ts";
import {
  type ApiRetirement,
  applicationIdOf,
  cancelQueuedSyncRuns,
  checkProviderKeys,
  deleteInstanceProvider,
  environmentKeys,
  type InstanceProviderStatus,
  isConnector,
  keyedConnector,
  moveConnectionsAfterKeyChange,
  type ProviderDescriptor,
  type ProviderKeys,
  type ProviderKind,
  providerUrlsOf,
  requireTenant,
  upsertInstanceProviderKeys,
  upsertInstanceProviderSwitch,
} from "../connections/index.ts";
import { type AuditContext, listTenantProviderSwitches, providerOnForTenant, recordAudit, upsertTenantProviderSwitch } from "../identity/index.ts";

type AdminDeps = Pick<CoreDeps, "db" | "providers" | "providerConfig">;

/** The admin's view of one provider for one tenant (Tenant provider switch). */
export interface TenantProviderSwitchDto {
  slug: string;
  name: string;
  kinds: ProviderKind[];
  instance_status: InstanceProviderStatus;
  enabled: boolean;
  own_keys: boolean;
  available: boolean;
  updated_at: string | null;
}

/** The instance's configuration of one provider (Instance provider). Secret values never appear. */
export interface InstanceProviderDto {
  slug: string;
  name: string;
  kinds: ProviderKind[];
  status: InstanceProviderStatus;
  enabled: boolean;
  source: "env" | "console" | null;
  keys: Array<{ name: string; env: string; required: boolean; secret: boolean; set: boolean; value: string | null }>;
  error: string | null;
  /** Both null for a device provider (no consent, no notifications). */
  urls: { redirect: string | null; inbound: string | null };
  updated_at: string | null;
  updated_by: string | null;
  /** Set when the provider's owner turns its API down. */
  retirement: { api: string; support_ends_on: string; turned_off_on: string; replacement: string; source: string } | null;
}

function retirementOf(retirement: ApiRetirement | undefined): InstanceProviderDto["retirement"] {
  if (!retirement) return null;
  return {
    api: retirement.api,
    support_ends_on: retirement.supportEndsOn,
    turned_off_on: retirement.turnedOffOn,
    replacement: retirement.replacement,
    source: retirement.source,
  };
}

function findProvider(deps: AdminDeps, slug: string): ProviderDescriptor {
  const descriptor = deps.providers.find(slug);
  if (!descriptor) throw new AppError("not_found", `This build knows no provider ${slug}.`);
  return descriptor;
}

async function tenantSwitchOf(
  deps: AdminDeps,
  tenantId: string,
  descriptor: ProviderDescriptor,
  updatedAt: Date | null,
): Promise<TenantProviderSwitchDto> {
  const about = { slug: descriptor.slug, name: descriptor.name, kinds: [descriptor.kind], updated_at: updatedAt?.toISOString() ?? null };
  if (!isConnector(descriptor)) {
    // Device providers run wherever the instance runs: only the tenant switch decides.
    const enabled = await providerOnForTenant(deps.db, tenantId, descriptor.slug);
    return { ...about, instance_status: "active", enabled, own_keys: false, available: enabled };
  }
  const availability = await deps.providerConfig.availability(tenantId, descriptor);
  return {
    ...about,
    instance_status: availability.instanceStatus,
    enabled: availability.enabled,
    own_keys: availability.ownKeys,
    available: availability.available,
  };
}

/** GET /v1/admin/tenants/{tenant_id}/providers: the tenant's switch of every provider of the build; recorded as `config.read`. */
export async function listTenantProviderSwitchesForAdmin(deps: AdminDeps, audit: AuditContext, tenantId: string): Promise<{ data: TenantProviderSwitchDto[] }> {
  await requireTenant(deps.db, tenantId);
  const updatedAt = new Map((await listTenantProviderSwitches(deps.db, tenantId)).map((row) => [row.provider, row.updatedAt]));
  const data: TenantProviderSwitchDto[] = [];
  for (const descriptor of deps.providers.all()) data.push(await tenantSwitchOf(deps, tenantId, descriptor, updatedAt.get(descriptor.slug) ?? null));
  await recordAudit(deps.db, audit, "config.read", { tenantId });
  return { data };
}

/**
 * PATCH /v1/admin/tenants/{tenant_id}/providers/{provider}: the admin switch. Switched off,
 * the tenant's queued pulls of the provider end `cancelled`; connections and data stay.
 */
export async function setTenantProviderSwitchForAdmin(
  deps: CoreDeps,
  audit: AuditContext,
  tenantId: string,
  slug: string,
  enabled: boolean,
): Promise<TenantProviderSwitchDto> {
  await requireTenant(deps.db, tenantId);
  const descriptor = findProvider(deps, slug);
  const row = await deps.db.$transaction(async (tx) => {
    const saved = await upsertTenantProviderSwitch(tx, tenantId, slug, enabled);
    await recordAudit(tx, audit, "tenant.provider", { tenantId, provider: slug });
    if (!enabled) await cancelQueuedSyncRuns(tx, { provider: slug, tenantId, error: `The provider ${slug} was switched off for the tenant.` });
    return saved;
  });
  deps.providerConfig.invalidate();
  return tenantSwitchOf(deps, tenantId, descriptor, row.updatedAt);
}

async function instanceProviderOf(deps: AdminDeps, descriptor: ProviderDescriptor): Promise<InstanceProviderDto> {
  const about = { slug: descriptor.slug, name: descriptor.name, kinds: [descriptor.kind] };
  if (!isConnector(descriptor)) {
    return {
      ...about,
      status: "active",
      enabled: true,
      source: null,
      keys: [],
      error: null,
      urls: { redirect: null, inbound: null },
      updated_at: null,
      updated_by: null,
      retirement: null,
    };
  }
  const state = await deps.providerConfig.instance(descriptor);
  return {
    ...about,
    status: state.status,
    enabled: state.enabled,
    source: state.source,
    keys: descriptor.keys.map((spec) => {
      const value = state.keys?.[spec.name];
      return { name: spec.name, env: spec.env, required: spec.required, secret: spec.secret, set: Boolean(value), value: spec.secret ? null : (value ?? null) };
    }),
    error: state.error,
    urls: providerUrlsOf(descriptor, deps.providerConfig.settings),
    updated_at: state.updatedAt?.toISOString() ?? null,
    updated_by: state.updatedBy,
    retirement: retirementOf(descriptor.retirement),
  };
}

/** GET /v1/admin/providers: every provider of the build, device ones included. */
export async function listInstanceProviders(deps: AdminDeps): Promise<{ data: InstanceProviderDto[] }> {
  const data: InstanceProviderDto[] = [];
  for (const descriptor of deps.providers.all()) data.push(await instanceProviderOf(deps, descriptor));
  return { data };
}

/** GET /v1/admin/providers/{provider}. */
export function getInstanceProvider(deps: AdminDeps, slug: string): Promise<InstanceProviderDto> {
  return instanceProviderOf(deps, findProvider(deps, slug));
}

/**
 * PATCH /v1/admin/providers/{provider}: the instance switch of an OAuth or push provider.
 * Off, it no longer runs with the instance's keys (tenants with their own keys keep it);
 * queued pulls of connections made with the instance's keys end `cancelled`. Device
 * providers have no instance switch: 409.
 */
export async function setInstanceProviderSwitch(deps: CoreDeps, audit: AuditContext, slug: string, enabled: boolean): Promise<InstanceProviderDto> {
  const descriptor = findProvider(deps, slug);
  if (!isConnector(descriptor)) {
    throw new AppError("conflict", `${slug} is a device provider: it has no instance switch; switch it per tenant.`);
  }
  await deps.db.$transaction(async (tx) => {
    await upsertInstanceProviderSwitch(tx, { provider: slug, enabled, updatedBy: audit.actor.id });
    await recordAudit(tx, audit, "instance.provider", { tenantId: null, provider: slug });
    if (!enabled) {
      const error = `The provider ${slug} was switched off on the instance.`;
      await cancelQueuedSyncRuns(tx, { provider: slug, tenantId: null, keySource: "instance", error });
    }
  });
  deps.providerConfig.invalidate();
  return instanceProviderOf(deps, descriptor);
}

/**
 * PUT /v1/admin/providers/{provider}/keys: instance keys saved from the console (sealed).
 * 409 when the environment configures the provider (it wins as a whole). Keys naming another
 * application move the connections made with the instance's keys to needs_reauth.
 */
export async function putInstanceProviderKeys(
  deps: CoreDeps,
  audit: AuditContext,
  slug: string,
  keys: ProviderKeys,
): Promise<InstanceProviderDto & { reauth_required: number }> {
  const connector = keyedConnector(deps.providers, slug);
  if (environmentKeys(connector, deps.providerConfig.settings)) {
    throw new AppError("conflict", `The environment configures ${slug}; it wins over keys saved from the console. Change the environment instead.`);
  }
  checkProviderKeys(connector, keys);
  const applicationId = applicationIdOf(connector, keys);
  const reauthRequired = await deps.db.$transaction(async (tx) => {
    await upsertInstanceProviderKeys(tx, { provider: slug, sealedKeys: deps.sealer.seal(JSON.stringify(keys)), updatedBy: audit.actor.id });
    await recordAudit(tx, audit, "instance.provider_keys", { tenantId: null, provider: slug });
    return moveConnectionsAfterKeyChange(tx, deps, { provider: slug, tenantId: null, keySources: ["instance"], keptApplicationId: applicationId });
  });
  deps.providerConfig.invalidate();
  return { ...(await instanceProviderOf(deps, connector)), reauth_required: reauthRequired };
}

/**
 * DELETE /v1/admin/providers/{provider}: forgets the saved keys and switch; the environment
 * is untouched, connections and data stay. 404 when nothing was saved.
 */
export async function deleteInstanceProviderConfig(deps: CoreDeps, audit: AuditContext, slug: string): Promise<InstanceProviderDto> {
  const descriptor = findProvider(deps, slug);
  await deps.db.$transaction(async (tx) => {
    if (!(await deleteInstanceProvider(tx, slug))) throw new AppError("not_found", `Nothing is saved for ${slug}.`);
    await recordAudit(tx, audit, "instance.provider.delete", { tenantId: null, provider: slug });
  });
  deps.providerConfig.invalidate();
  return instanceProviderOf(deps, descriptor);
}
