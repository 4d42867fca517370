import type { CoreDeps } from "../deps.ts";
import { AppError } from "../errors/app-error.ts";
import type { InboundAnswer, InboundRequest } from "../providers/connector.ts";
import { listSealedTenantKeys } from "../repositories/provider-keys-repository.ts";
import { queueNotifiedPulls, storePushedPayloads } from "./sync-runs.ts";

/**
 * A request to `{public_url}/providers/{slug}/notifications`, answered by the connector's
 * notification handler with every key set that may have signed it (the instance's and each
 * tenant's own). 404 for a provider that takes no notifications; 400 when the handler
 * throws (a body it cannot read), so a provider never sees a 500 from us.
 */
export async function answerProviderNotification(
  deps: Pick<CoreDeps, "db" | "providers" | "providerConfig">,
  slug: string,
  request: InboundRequest,
): Promise<InboundAnswer> {
  const connector = deps.providers.connector(slug);
  if (!connector?.notifications) throw new AppError("not_found", "No provider takes notifications at this address.");
  const keySets = await deps.providerConfig.allKeySets(connector, await listSealedTenantKeys(deps.db, slug));
  try {
    return connector.notifications.handle(request, keySets);
  } catch (error) {
    throw new AppError("bad_request", "The notification could not be read.", { cause: error });
  }
}

/**
 * What an accepted notification asks for: pulls queued for the connections of the provider
 * users it names (ping/pull), payloads it carried stored raw (push). Nothing for a refused one.
 */
export async function queueNotificationWork(deps: CoreDeps, slug: string, answer: InboundAnswer): Promise<void> {
  if (answer.status < 200 || answer.status >= 300) return;
  if (answer.pulls && answer.pulls.length > 0) await queueNotifiedPulls(deps, slug, answer.pulls);
  if (answer.payloads && answer.payloads.length > 0) await storePushedPayloads(deps, slug, answer.payloads);
}
