import type { CoreDeps } from "../deps.ts";
import { AppError } from "../platform/index.ts";
import type { InboundAnswer, InboundRequest, RevokedGrant } from "./providers/connector.ts";
import { findActiveConnectionsOfProviderUser, lockSyncConnection } from "./connection-health-repository.ts";
import { listSealedTenantKeys } from "./provider-keys-repository.ts";
import { cancelOpenRunsOfConnection } from "./sync-run-repository.ts";
import { moveToNeedsReauth } from "./sync/health-moves.ts";
import { queueNotifiedPulls, storePushedPayloads } from "./sync-runs.ts";

/** A connector's answer to a notification, and the application whose keys it was accepted with. */
export interface AcceptedNotification extends InboundAnswer {
  /** The application that verified it; null when no application is configured (nothing was verified). */
  applicationId: string | null;
}

/**
 * A request to `{public_url}/providers/{slug}/notifications`, answered by the connector's
 * notification handler with each application's keys in turn (the instance's, then each
 * tenant's own): the first that accepts it is the one that verified it, so a tenant holding
 * its own secret cannot sign notifications about another application's users. 404 for a
 * provider that takes no notifications; 400 when the handler throws (a body it cannot read),
 * so a provider never sees a 500 from us.
 */
export async function answerProviderNotification(
  deps: Pick<CoreDeps, "db" | "providers" | "providerConfig">,
  slug: string,
  request: InboundRequest,
): Promise<AcceptedNotification> {
  const connector = deps.providers.connector(slug);
  if (!connector?.notifications) throw new AppError("not_found", "No provider takes notifications at this address.");
  const applications = await deps.providerConfig.notificationKeySets(connector, await listSealedTenantKeys(deps.db, slug));
  try {
    if (applications.length === 0) return { ...(await connector.notifications.handle(request, [])), applicationId: null };
    let refusal: InboundAnswer | undefined;
    for (const { applicationId, keys } of applications) {
      const answer = await connector.notifications.handle(request, [keys]);
      if (answer.status >= 200 && answer.status < 300) return { ...answer, applicationId };
      refusal ??= answer;
    }
    return { ...refusal!, applicationId: null };
  } catch (error) {
    throw new AppError("bad_request", "The notification could not be read.", { cause: error });
  }
}

/**
 * What an accepted notification asks for: connections of provider users who revoked access
 * moved to needs_reauth, pulls queued for the connections of the provider users it names
 * (ping/pull), payloads it carried stored raw (push). Nothing for a refused one. Revocations
 * and payloads reach only connections made with the application that verified the
 * notification; pulls reach every connection of the provider user (a pull only reads the
 * provider with the user's own grant, so a forged ping can do no more than cause one).
 */
export async function queueNotificationWork(deps: CoreDeps, slug: string, answer: AcceptedNotification): Promise<void> {
  if (answer.status < 200 || answer.status >= 300) return;
  const { applicationId } = answer;
  if (answer.revoked && answer.revoked.length > 0 && applicationId) await moveRevokedConnections(deps, slug, answer.revoked, applicationId);
  if (answer.pulls && answer.pulls.length > 0) await queueNotifiedPulls(deps, slug, answer.pulls);
  if (answer.payloads && answer.payloads.length > 0 && applicationId) await storePushedPayloads(deps, slug, answer.payloads, applicationId);
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
  applicationId: string,
): Promise<number> {
  let moved = 0;
  for (const grant of revoked) {
    for (const found of await findActiveConnectionsOfProviderUser(deps.db, slug, grant.providerUserId, applicationId)) {
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
