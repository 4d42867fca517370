import type { MetricGroup } from "../catalog/quantity-types.ts";

/** How a provider's data reaches svc: OAuth pulls, pushes from the provider, or uploads from a device or app. */
export type ProviderKind = "oauth" | "push" | "device";

/** What this build knows of one provider (one folder of @svc/providers). */
export interface ProviderDescriptor {
  /** The provider's name in paths, records (`provider`) and events, e.g. `apple_health`. */
  slug: string;
  /** Shown to people, e.g. `Apple Health`. */
  name: string;
  kind: ProviderKind;
  /** The catalog groups of the records it brings. */
  dataTypes: readonly MetricGroup[];
}

/**
 * The providers of this build. Core cannot import @svc/providers (which depends on core):
 * the process hands the registry in through CoreDeps.
 */
export interface ProviderCatalog {
  find(slug: string): ProviderDescriptor | undefined;
  all(): readonly ProviderDescriptor[];
}

/** A catalog of these descriptors, in the order given; throws on a slug given twice. */
export function providerCatalogOf(descriptors: readonly ProviderDescriptor[]): ProviderCatalog {
  const bySlug = new Map<string, ProviderDescriptor>();
  for (const descriptor of descriptors) {
    if (bySlug.has(descriptor.slug)) throw new Error(`Provider ${descriptor.slug} is registered twice.`);
    bySlug.set(descriptor.slug, descriptor);
  }
  return { find: (slug) => bySlug.get(slug), all: () => descriptors };
}
