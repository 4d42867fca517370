import { providerRequest, type Connector, type ProviderClient, type ProviderKeys, type PullContext } from "@svc/core";

export interface PullHarness {
  context: PullContext;
  /** What `pull` stored, in order. */
  stored: Array<{ format: string; payload: unknown }>;
}

/**
 * A connector's pull context over the real request function (msw answers for the
 * provider), collecting what it stores. The sync engine gives connectors the same calls.
 */
export function pullHarness(
  connector: Connector,
  options: {
    window: { start: Date; end: Date };
    accessToken?: string;
    keys?: ProviderKeys;
    providerUserId?: string | null;
    dataType?: string | null;
    scopes?: readonly string[];
  },
): PullHarness {
  const stored: PullHarness["stored"] = [];
  const client = clientHarness(connector, options);
  return {
    stored,
    context: {
      ...client,
      providerUserId: options.providerUserId ?? null,
      scopes: options.scopes ?? connector.oauth.scopes,
      window: options.window,
      dataType: options.dataType ?? null,
      store: async (format, payload) => {
        if (!connector.parsers[format]) throw new Error(`pull stored format ${format} without a parser`);
        stored.push({ format, payload });
      },
    },
  };
}

/** A provider client with the connector's default URLs (`{public_url}` as http://svc.test). */
export function clientHarness(connector: Connector, options: { accessToken?: string; keys?: ProviderKeys } = {}): ProviderClient {
  const keys = options.keys ?? { CLIENT_ID: "test-client-id", CLIENT_SECRET: "test-client-secret" };
  const urls = Object.fromEntries(Object.entries(connector.urls).map(([name, url]) => [name, url.replaceAll("{public_url}", "http://svc.test")]));
  return {
    urls: urls as ProviderClient["urls"],
    keys,
    request: (url, init = {}) =>
      providerRequest(url, init, { accessToken: options.accessToken ?? "test-access-token", clientId: keys.CLIENT_ID, clientSecret: keys.CLIENT_SECRET }),
  };
}
