import type { CoreDeps } from "../../deps.ts";
import { ProviderError, type Connector, type ProviderClient, type ProviderKeys, type ProviderUrls } from "../providers/connector.ts";
import { providerRequest } from "../providers/provider-request.ts";
import type { SyncTrigger } from "../sync-run-repository.ts";
import type { ConnectionTokens } from "./connection-tokens.ts";
import { pauseApplicationQuota, takeRequestQuota } from "./provider-quotas.ts";

/**
 * The provider client of one sync run: every request counts against the provider's
 * quotas first (QuotaSpent when one is spent), carries the connection's access token, is
 * retried once with a refreshed token after a 401, and a 429 pauses the whole application
 * for Retry-After (every user of it waits, as the provider asked).
 */
export function pullClient(
  deps: Pick<CoreDeps, "db" | "sync">,
  input: {
    connector: Connector;
    urls: ProviderUrls;
    keys: ProviderKeys;
    connection: { id: bigint; applicationId: string };
    trigger: SyncTrigger;
    tokens: ConnectionTokens;
  },
): ProviderClient {
  const { connector, keys, connection, tokens } = input;
  const send = async (url: string | URL, init: Parameters<ProviderClient["request"]>[1], accessToken: string | null) => {
    await takeRequestQuota(deps.db, deps.sync, { connector, connection, trigger: input.trigger, now: new Date() });
    try {
      return await providerRequest(url, init ?? {}, { accessToken, clientId: keys.CLIENT_ID, clientSecret: keys.CLIENT_SECRET });
    } catch (error) {
      if (error instanceof ProviderError && error.kind === "rate_limited") {
        const now = new Date();
        const waitMs = error.retryAfterSeconds !== null ? error.retryAfterSeconds * 1000 : deps.sync.rateLimitedDefaultMs;
        await pauseApplicationQuota(deps.db, connector.slug, connection, new Date(now.getTime() + waitMs), now);
      }
      throw error;
    }
  };
  return {
    urls: input.urls,
    keys,
    async request(url, init = {}) {
      const bearer = (init.auth ?? "bearer") === "bearer";
      const accessToken = bearer ? await tokens.accessToken() : null;
      try {
        return await send(url, init, accessToken);
      } catch (error) {
        if (!(bearer && error instanceof ProviderError && error.kind === "refused" && error.status === 401)) throw error;
        return send(url, init, await tokens.afterUnauthorized());
      }
    },
  };
}
