import type { Connector, ProviderKeys } from "./providers/connector.ts";
import type { ProviderCatalog } from "./providers/provider-catalog.ts";
import { applicationIdOf, environmentKeys, missingRequiredKeys, type ProviderSettings } from "./providers/provider-settings.ts";
import type { DbClient, Sealer } from "../platform/index.ts";
import { findInstanceProvider, findTenantProviderKeys } from "./provider-keys-repository.ts";
import { findTenantProviderSwitch } from "../identity/index.ts";

/** How long another process may keep using keys changed elsewhere (the spec allows 30 seconds). */
export const PROVIDER_CONFIG_TTL_MS = 10_000;

export type InstanceProviderStatus = "active" | "off" | "not_configured" | "error" | "built_in";

/** The instance's configuration of one OAuth or push provider, as it runs now. */
export interface InstanceProviderState {
  status: InstanceProviderStatus;
  /** The instance switch (false: `off` for every tenant). */
  enabled: boolean;
  /** Where the keys come from: the environment (wins as a whole), the console, or nowhere. */
  source: "env" | "console" | null;
  /** The keys in use; null unless status is active (or error with readable keys). */
  keys: ProviderKeys | null;
  error: string | null;
  updatedAt: Date | null;
  updatedBy: string | null;
}

export type TenantKeysStatus = "active" | "error" | "not_set";

/** A tenant's own keys of one provider. */
export interface TenantKeysState {
  status: Exclude<TenantKeysStatus, "not_set">;
  keys: ProviderKeys | null;
  applicationId: string;
  error: string | null;
  createdAt: Date;
  updatedAt: Date;
  updatedBy: string | null;
}

/** The keys a connection is made with (and keeps): whose they are and which application they name. */
export interface ApplicationKeys {
  keySource: "instance" | "tenant" | "built_in";
  keys: ProviderKeys;
  applicationId: string;
}

/** The switch and keys of one provider for one tenant (the admin's tenant provider switch). */
export interface ProviderAvailability {
  instanceStatus: InstanceProviderStatus;
  enabled: boolean;
  ownKeys: boolean;
  available: boolean;
}

export const BUILT_IN_APPLICATION = "built_in";

/**
 * Reads provider keys and switches for the engine and routes, with a short cache: a change
 * made through this process is seen at once (`invalidate`), one made by another process
 * within PROVIDER_CONFIG_TTL_MS.
 */
export class ProviderConfig {
  readonly settings: ProviderSettings;
  /** The catalog this configuration belongs to. */
  readonly providers: ProviderCatalog;
  private readonly db: DbClient;
  private readonly sealer: Sealer;
  private readonly cache = new Map<string, { value: unknown; until: number }>();

  constructor(db: DbClient, sealer: Sealer, providers: ProviderCatalog, settings: ProviderSettings) {
    this.db = db;
    this.sealer = sealer;
    this.providers = providers;
    this.settings = settings;
  }

  /** Forgets everything cached: call after saving keys or switches. */
  invalidate(): void {
    this.cache.clear();
  }

  instance(connector: Connector): Promise<InstanceProviderState> {
    return this.cached(`instance:${connector.slug}`, () => this.readInstance(connector));
  }

  /** The tenant's own keys; null when it has none. */
  tenantKeys(tenantId: string, connector: Connector): Promise<TenantKeysState | null> {
    return this.cached(`tenant:${tenantId}:${connector.slug}`, () => this.readTenantKeys(tenantId, connector));
  }

  async availability(tenantId: string, connector: Connector): Promise<ProviderAvailability> {
    const [instance, own, enabled] = await Promise.all([
      this.instance(connector),
      this.tenantKeys(tenantId, connector),
      this.cached(`switch:${tenantId}:${connector.slug}`, async () => (await findTenantProviderSwitch(this.db, tenantId, connector.slug)) !== false),
    ]);
    const runs = own ? own.status === "active" : instance.status === "active" || instance.status === "built_in";
    return { instanceStatus: instance.status, enabled, ownKeys: own !== null, available: enabled && runs };
  }

  /** The keys a new connection of the tenant's user would be made with; null when the provider cannot run for the tenant. */
  async forNewConnection(tenantId: string, connector: Connector): Promise<ApplicationKeys | null> {
    const own = await this.tenantKeys(tenantId, connector);
    if (own) return own.status === "active" && own.keys ? { keySource: "tenant", keys: own.keys, applicationId: own.applicationId } : null;
    const instance = await this.instance(connector);
    if (instance.status === "built_in") return { keySource: "built_in", keys: {}, applicationId: BUILT_IN_APPLICATION };
    if (instance.status !== "active" || !instance.keys) return null;
    return { keySource: "instance", keys: instance.keys, applicationId: applicationIdOf(connector, instance.keys) };
  }

  /**
   * The keys an existing connection runs with: the ones it was made with. Null when they are
   * gone or name another application now (the connection needs the user's reauth).
   */
  async forConnection(
    tenantId: string,
    connector: Connector,
    connection: { keySource: string; applicationId: string },
  ): Promise<ApplicationKeys | null> {
    if (connection.keySource === "built_in") return { keySource: "built_in", keys: {}, applicationId: BUILT_IN_APPLICATION };
    if (connection.keySource === "tenant") {
      const own = await this.tenantKeys(tenantId, connector);
      if (!own || own.status !== "active" || !own.keys || own.applicationId !== connection.applicationId) return null;
      return { keySource: "tenant", keys: own.keys, applicationId: own.applicationId };
    }
    const instance = await this.instance(connector);
    if (instance.status !== "active" || !instance.keys) return null;
    return { keySource: "instance", keys: instance.keys, applicationId: applicationIdOf(connector, instance.keys) };
  }

  /**
   * Every application that may sign a provider's notifications, with the keys it runs with:
   * the instance's and each tenant's own (given sealed, with the application they name).
   */
  async notificationKeySets(
    connector: Connector,
    tenantKeys: ReadonlyArray<{ sealedKeys: string; applicationId: string }>,
  ): Promise<Array<{ applicationId: string; keys: ProviderKeys }>> {
    const sets: Array<{ applicationId: string; keys: ProviderKeys }> = [];
    const instance = await this.instance(connector);
    if (instance.keys) sets.push({ applicationId: applicationIdOf(connector, instance.keys), keys: instance.keys });
    for (const row of tenantKeys) {
      const keys = this.openKeys(row.sealedKeys);
      if (keys) sets.push({ applicationId: row.applicationId, keys });
    }
    return sets;
  }

  private async readInstance(connector: Connector): Promise<InstanceProviderState> {
    const saved = await findInstanceProvider(this.db, connector.slug);
    const base = { enabled: saved?.enabled ?? true, updatedAt: saved?.updatedAt ?? null, updatedBy: saved?.updatedBy ?? null };
    if (connector.builtIn) return { ...base, status: base.enabled ? "built_in" : "off", source: null, keys: {}, error: null };
    const fromEnv = environmentKeys(connector, this.settings);
    const source = fromEnv ? "env" : saved?.sealedKeys ? "console" : null;
    const keys = fromEnv ?? (saved?.sealedKeys ? this.openKeys(saved.sealedKeys) : null);
    if (source === null) return { ...base, status: base.enabled ? "not_configured" : "off", source, keys: null, error: null };
    if (!keys) {
      return { ...base, status: "error", source, keys: null, error: "The saved keys no longer open: the encryption key changed. Save them again." };
    }
    const error = keysError(connector, keys);
    if (!base.enabled) return { ...base, status: "off", source, keys, error };
    return { ...base, status: error ? "error" : "active", source, keys, error };
  }

  private async readTenantKeys(tenantId: string, connector: Connector): Promise<TenantKeysState | null> {
    const row = await findTenantProviderKeys(this.db, tenantId, connector.slug);
    if (!row) return null;
    const keys = this.openKeys(row.sealedKeys);
    const error = keys ? keysError(connector, keys) : "The saved keys no longer open: the encryption key changed. Save them again.";
    return {
      status: error ? "error" : "active",
      keys,
      applicationId: row.applicationId,
      error,
      createdAt: row.createdAt,
      updatedAt: row.updatedAt,
      updatedBy: row.updatedBy,
    };
  }

  private openKeys(sealed: string): ProviderKeys | null {
    try {
      return JSON.parse(this.sealer.open(sealed)) as ProviderKeys;
    } catch {
      return null;
    }
  }

  private async cached<T>(key: string, read: () => Promise<T>): Promise<T> {
    const hit = this.cache.get(key);
    if (hit && hit.until > Date.now()) return hit.value as T;
    const value = await read();
    this.cache.set(key, { value, until: Date.now() + PROVIDER_CONFIG_TTL_MS });
    return value;
  }
}

/** Why these keys cannot run: missing required keys, or the provider's own rules. */
export function keysError(connector: Connector, keys: ProviderKeys): string | null {
  const missing = missingRequiredKeys(connector, keys);
  if (missing.length > 0) return `Required keys missing: ${missing.join(", ")}.`;
  return connector.checkKeys?.(keys) ?? null;
}
