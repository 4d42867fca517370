import type { MetricGroup } from "../../records/index.ts";
import type { Connector, PayloadParser } from "./connector.ts";

/** How a provider's data reaches svc: OAuth pulls, pushes from the provider, or uploads from a device or app. */
export type ProviderKind = "oauth" | "push" | "device";

/** A provider whose data is uploaded by a device, an app or a person (no connection). */
export interface DeviceProvider {
  /** The provider's name in paths, records (`provider`) and events, e.g. `apple_health`. */
  slug: string;
  /** Shown to people, e.g. `Apple Health`. */
  name: string;
  kind: "device";
  /** The catalog groups of the records it brings. */
  dataTypes: readonly MetricGroup[];
}

/** What this build knows of one provider (one folder of @svc/providers). */
export type ProviderDescriptor = DeviceProvider | Connector;

/**
 * The providers of this build. Core cannot import @svc/providers (which depends on core):
 * the process hands the registry in through CoreDeps.
 */
export interface ProviderCatalog {
  find(slug: string): ProviderDescriptor | undefined;
  all(): readonly ProviderDescriptor[];
  /** The OAuth or push provider of this slug, if any. */
  connector(slug: string): Connector | undefined;
  /** The parser of a stored provider payload of this raw object format, if a connector has one. */
  payloadParser(format: string): PayloadParser | undefined;
}

export function isConnector(descriptor: ProviderDescriptor): descriptor is Connector {
  return descriptor.kind !== "device";
}

/** A catalog of these descriptors, in the order given; throws on a slug or payload format given twice. */
export function providerCatalogOf(descriptors: readonly ProviderDescriptor[]): ProviderCatalog {
  const bySlug = new Map<string, ProviderDescriptor>();
  const parsers = new Map<string, PayloadParser>();
  for (const descriptor of descriptors) {
    if (bySlug.has(descriptor.slug)) throw new Error(`Provider ${descriptor.slug} is registered twice.`);
    bySlug.set(descriptor.slug, descriptor);
    if (!isConnector(descriptor)) continue;
    for (const [format, parser] of Object.entries(descriptor.parsers)) {
      if (parsers.has(format)) throw new Error(`Payload format ${format} is registered twice.`);
      parsers.set(format, parser);
    }
  }
  return {
    find: (slug) => bySlug.get(slug),
    all: () => descriptors,
    connector: (slug) => {
      const descriptor = bySlug.get(slug);
      return descriptor && isConnector(descriptor) ? descriptor : undefined;
    },
    payloadParser: (format) => parsers.get(format),
  };
}
