import { createHash } from "node:crypto";
import type { Connector, ProviderKeys, ProviderUrls } from "./connector.ts";

/** What the process tells core about providers: its environment and its public address. */
export interface ProviderSettings {
  /** The process environment (provider keys `SVC_<SLUG>_<KEY>` and URL overrides `SVC_<SLUG>_<NAME>_URL`). */
  env: Readonly<Record<string, string | undefined>>;
  /**
   * The instance's public URL without a trailing slash (SVC_PUBLIC_URL, or the address the
   * server listens on): the OAuth callback, inbound notification and demo addresses hang off it.
   */
  publicUrl(): string;
}

/** `SVC_OURA` for `oura`, `SVC_GOOGLE_HEALTH` for `google_health`. */
export function providerEnvPrefix(slug: string): string {
  return `SVC_${slug.toUpperCase().replace(/[^A-Z0-9]+/g, "_")}`;
}

/** The connector's addresses after the environment's overrides (`SVC_<SLUG>_<NAME>_URL`), with `{public_url}` filled in. */
export function resolveProviderUrls(connector: Connector, settings: ProviderSettings): ProviderUrls {
  const resolved: Record<string, string> = {};
  for (const [name, fallback] of Object.entries(connector.urls)) {
    const override = settings.env[providerUrlEnvName(connector.slug, name)];
    resolved[name] = (override || fallback).replaceAll("{public_url}", settings.publicUrl());
  }
  return resolved as ProviderUrls;
}

/** The environment variable that overrides one of the connector's addresses. */
export function providerUrlEnvName(slug: string, name: string): string {
  return `${providerEnvPrefix(slug)}_${name.toUpperCase()}_URL`;
}

/** The redirect URI registered at the provider: the instance's, for every tenant. */
export function oauthCallbackUrl(settings: ProviderSettings, slug: string): string {
  return `${settings.publicUrl()}/oauth/${slug}/callback`;
}

/** Where the provider posts notifications (webhooks, pings) for this instance. */
export function inboundNotificationUrl(settings: ProviderSettings, slug: string): string {
  return `${settings.publicUrl()}/providers/${slug}/notifications`;
}

/** The keys set in the environment for this connector; null when none is (environment wins as a whole when any is). */
export function environmentKeys(connector: Connector, settings: ProviderSettings): ProviderKeys | null {
  const keys: Record<string, string> = {};
  for (const spec of connector.keys) {
    const value = settings.env[spec.env];
    if (value) keys[spec.name] = value;
  }
  return Object.keys(keys).length > 0 ? keys : null;
}

/** Required keys absent from `keys`, by name. */
export function missingRequiredKeys(connector: Connector, keys: ProviderKeys): string[] {
  return connector.keys.filter((spec) => spec.required && !keys[spec.name]).map((spec) => spec.name);
}

/**
 * Which application at the provider these keys name: a digest of the connector's
 * application keys (CLIENT_ID, REGION, ENVIRONMENT...). A rotated secret keeps it.
 */
export function applicationIdOf(connector: Connector, keys: ProviderKeys): string {
  const named = connector.applicationKeys.map((name) => `${name}=${keys[name] ?? ""}`).join("\n");
  return createHash("sha256").update(`${connector.slug}\n${named}`).digest("hex").slice(0, 32);
}

/** `abcd…wxyz`: the first and last four characters of a client id (all of it hidden when shorter than 9). */
export function maskClientId(clientId: string | undefined): string | null {
  if (!clientId) return null;
  if (clientId.length < 9) return "…";
  return `${clientId.slice(0, 4)}…${clientId.slice(-4)}`;
}
