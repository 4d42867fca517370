import type { CoreDeps } from "../deps.ts";
import { AppError } from "../errors/app-error.ts";
import type { InboundAnswer, InboundRequest, RevokedGrant } from "../providers/connector.ts";
import { findActiveConnectionsOfProviderUser, lockSyncConnection } from "../repositories/connection-health-repository.ts";
import { listSealedTenantKeys } from "../repositories/provider-keys-repository.ts";
import { cancelOpenRunsOfConnection } from "../repositories/sync-run-repository.ts";
import { moveToNeedsReauth } from "./sync-engine/health-moves.ts";
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
 * What an accepted notification asks for: connections of provider users who revoked access
 * moved to needs_reauth, pulls queued for the connections of the provider users it names
 * (ping/pull), payloads it carried stored raw (push). Nothing for a refused one.
 */
export async function queueNotificationWork(deps: CoreDeps, slug: string, answer: InboundAnswer): Promise<void> {
  if (answer.status < 200 || answer.status >= 300) return;
  if (answer.revoked && answer.revoked.length > 0) await moveRevokedConnections(deps, slug, answer.revoked);
  if (answer.pulls && answer.pulls.length > 0) await queueNotifiedPulls(deps, slug, answer.pulls);
  if (answer.payloads && answer.payloads.length > 0) await storePushedPayloads(deps, slug, answer.payloads);
}

const REVOKED_RUN_ERROR = "The user revoked access at the provider.";

/**
 * The provider says these users revoked the grant: each active connection of theirs moves
 * to needs_reauth (reason needs_reauth, action reconnect, connection.needs_reauth and
 * connection.broken) and its open runs end cancelled, one transaction per connection.
 * Answers how many moved.
 */
export async function moveRevokedConnections(
  deps: Pick<CoreDeps, "db" | "jobs">,
  slug: string,
  revoked: readonly RevokedGrant[],
): Promise<number> {
  let moved = 0;
  for (const grant of revoked) {
    for (const found of await findActiveConnectionsOfProviderUser(deps.db, slug, grant.providerUserId)) {
      const now = new Date();
      const wasMoved = await deps.db.$transaction(async (tx) => {
        const connection = await lockSyncConnection(tx, found.id);
        if (!connection || connection.status !== "active") return false;
        if (!(await moveToNeedsReauth(deps, tx, connection, "needs_reauth", now))) return false;
        await cancelOpenRunsOfConnection(tx, connection.id, REVOKED_RUN_ERROR);
        return true;
      });
      if (wasMoved) moved += 1;
    }
  }
  return moved;
}
