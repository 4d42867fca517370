/**
 * Whether a provider is available to a tenant, and why, in one vocabulary for every page
 * (the tenant's providers tab and its pipeline): derived from the tenant provider switch the
 * admin routes answer (instance status, the tenant switch, own keys and `available`).
 */
export type AvailabilityReason =
  /** Available: device uploads (no keys needed). */
  | "device"
  /** Available: a built-in provider (no keys needed). */
  | "built_in"
  /** Available: with the tenant's own keys. */
  | "own_keys"
  /** Available: with the instance's keys. */
  | "instance_keys"
  /** Unavailable: an instance admin switched it off for this tenant. */
  | "off_for_tenant"
  /** Unavailable: the tenant's own keys are in error (they replace the instance's). */
  | "tenant_keys_error"
  /** Unavailable: switched off on the instance (and the tenant has no own keys). */
  | "instance_off"
  /** Unavailable: the instance has no keys for it (and the tenant has no own keys). */
  | "instance_not_configured"
  /** Unavailable: the instance's keys are in error (and the tenant has no own keys). */
  | "instance_keys_error";

export interface ProviderAvailability {
  available: boolean;
  reason: AvailabilityReason;
}

/** What each reason says on the page. */
export const REASON_TEXT: Record<AvailabilityReason, string> = {
  device: "device uploads, no keys needed",
  built_in: "built in, no keys needed",
  own_keys: "with the tenant's own keys",
  instance_keys: "with the instance's keys",
  off_for_tenant: "switched off for this tenant",
  tenant_keys_error: "the tenant's own keys are in error",
  instance_off: "switched off on the instance",
  instance_not_configured: "the instance has no keys for it (not configured)",
  instance_keys_error: "the instance's keys are in error",
};

export interface TenantProviderSwitch {
  kinds: ReadonlyArray<"oauth" | "push" | "device">;
  instance_status: "active" | "off" | "not_configured" | "error" | "built_in";
  enabled: boolean;
  own_keys: boolean;
  available: boolean;
}

/** The provider's availability to the tenant and its reason; `available` is the server's. */
export function availabilityOf(provider: TenantProviderSwitch): ProviderAvailability {
  const { available } = provider;
  if (!provider.enabled) return { available, reason: "off_for_tenant" };
  if (provider.kinds.includes("device")) return { available, reason: "device" };
  if (provider.own_keys) return { available, reason: available ? "own_keys" : "tenant_keys_error" };
  switch (provider.instance_status) {
    case "built_in":
      return { available, reason: "built_in" };
    case "active":
      return { available, reason: "instance_keys" };
    case "off":
      return { available, reason: "instance_off" };
    case "not_configured":
      return { available, reason: "instance_not_configured" };
    case "error":
      return { available, reason: "instance_keys_error" };
  }
}
