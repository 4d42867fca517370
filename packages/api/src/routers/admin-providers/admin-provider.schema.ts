import { z } from "zod";
import { ZDateTime, ZId } from "../../schemas/common.ts";

export const ZProviderSlug = z.string().min(1).max(64).describe("The provider's slug, as GET /v1/admin/providers lists it.");

/** Path of one provider of one tenant: `/v1/admin/tenants/{tenant_id}/providers/{provider}`. */
export const ZTenantProviderPath = { tenant_id: ZId("tenant"), provider: ZProviderSlug };

/** Path of one provider of the instance: `/v1/admin/providers/{provider}`. */
export const ZInstanceProviderPath = { provider: ZProviderSlug };

export const ZProviderKinds = z
  .array(z.enum(["oauth", "push", "device"]))
  .describe("How data arrives: `oauth` (svc pulls), `push` (the provider notifies, svc pulls), `device` (uploads).");

export const ZInstanceStatus = z
  .enum(["active", "off", "not_configured", "error", "built_in"])
  .describe(
    "active: runs with the instance's keys; off: an admin switched it off on the instance (tenants with their own keys keep it); not_configured: no keys in the environment or saved from the console; error: keys present but refused (see error); built_in: served by the instance itself, no keys.",
  );

/** A PUT body's keys: every key by name (replaces all). Values are never shown back. */
export const ZKeysBody = z
  .record(z.string().min(1).max(64), z.string().min(1).max(8192))
  .describe("Every key by name, e.g. {\"CLIENT_ID\": \"...\", \"CLIENT_SECRET\": \"...\"}; replaces all saved keys. Values are sealed and never shown back.");

export const ZReauthRequired = z
  .number()
  .int()
  .min(0)
  .describe("How many active connections moved to needs_reauth because their application changed (the users must reconnect).");

export const ZProviderUrls = z
  .object({
    redirect: z.string().describe("The OAuth redirect URI to register at the provider: the instance's, for every tenant."),
    inbound: z.string().nullable().describe("Where the provider sends notifications (register it at the provider); null for a provider that sends none."),
  })
  .describe("Addresses of this instance to register at the provider.");

export const ZTenantProviderSwitch = z
  .object({
    slug: z.string(),
    name: z.string().describe("Display name."),
    kinds: ZProviderKinds,
    instance_status: ZInstanceStatus,
    enabled: z.boolean().describe("The admin switch for this tenant: true unless an admin turned it off."),
    own_keys: z.boolean().describe("Whether the tenant has its own keys (its own application at the provider)."),
    available: z
      .boolean()
      .describe("enabled, and either the tenant's own keys run, or it has none and the instance runs the provider."),
    updated_at: ZDateTime.nullable().describe("When the switch was last set; null when never set."),
  })
  .describe("One provider for one tenant: the admin switch and whether the provider runs for it.");

/** One key a provider takes, for a tenant: whether it is set, never its value. */
export const ZTenantProviderKey = z.object({ name: z.string(), required: z.boolean(), secret: z.boolean(), set: z.boolean() });

export const ZTenantProviderKeys = z
  .object({
    provider: z.string(),
    set: z.boolean().describe("Whether the tenant has its own keys of this provider."),
    status: z.enum(["active", "error", "not_set"]).describe("active: the keys run; error: they are refused (see error); not_set: none saved."),
    error: z.string().nullable(),
    client_id: z.string().nullable().describe("The first and last four characters of CLIENT_ID; null when not set."),
    keys: z.array(ZTenantProviderKey).describe("Every key the provider takes and whether it is set; never a value."),
    urls: ZProviderUrls,
    created_at: ZDateTime.nullable(),
    updated_at: ZDateTime.nullable(),
    updated_by: z.string().nullable().describe("Id of the admin key that saved the keys."),
  })
  .describe("A tenant's own keys of one provider, without values.");

export const ZTenantProviderKeysChange = ZTenantProviderKeys.extend({ reauth_required: ZReauthRequired });

/** One key a provider takes, on the instance: its variable, whether it is set, and the value of one that is not secret. */
export const ZInstanceProviderKey = z.object({
  name: z.string(),
  env: z.string().describe("The environment variable that sets it, e.g. SVC_OURA_CLIENT_ID."),
  required: z.boolean(),
  secret: z.boolean(),
  set: z.boolean(),
  value: z.string().nullable().describe("The value of a key that is not secret; null for secrets and unset keys."),
});

export const ZInstanceProviderUrls = z
  .object({ redirect: z.string().nullable(), inbound: z.string().nullable() })
  .describe("Addresses of this instance to register at the provider; both null for device providers.");

export const ZInstanceProvider = z
  .object({
    slug: z.string(),
    name: z.string().describe("Display name."),
    kinds: ZProviderKinds,
    status: ZInstanceStatus,
    enabled: z.boolean().describe("The instance switch; false makes the instance's status `off` (tenants with their own keys keep the provider)."),
    source: z
      .enum(["env", "console"])
      .nullable()
      .describe("Where the keys come from: environment variables (they win over the console as a whole), the console, or nowhere."),
    keys: z.array(ZInstanceProviderKey).describe("Every key the provider takes; empty for device and built-in providers."),
    error: z.string().nullable().describe("Why the keys are refused, when status is error."),
    urls: ZInstanceProviderUrls,
    updated_at: ZDateTime.nullable().describe("When keys or switch were last saved from the console."),
    updated_by: z.string().nullable().describe("Id of the admin key that saved them."),
    retirement: z
      .object({
        api: z.string().describe("The API by its owner's name."),
        support_ends_on: z.string().describe("The day (YYYY-MM-DD) its owner ends support: still served, no more fixes."),
        turned_off_on: z.string().describe("The day (YYYY-MM-DD, UTC) its owner turns it off: pulls fail from then on."),
        replacement: z.string().describe("The provider of this build to move users to."),
        source: z.string().describe("Where the owner announced the dates."),
      })
      .nullable()
      .describe("Set when the provider's owner turns its API down (Fitbit: the Fitbit Web API, replaced by google_health); null otherwise."),
  })
  .describe("The instance's configuration of one provider. Secret values never appear.");

export const ZAdminErrors = {
  401: "Missing, wrong or expired secret",
  403: "Not an instance admin key",
} as const;
