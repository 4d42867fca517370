import type { CoreDeps } from "../deps.ts";
import type { DbClient } from "../platform/index.ts";
import { deleteIdempotencyRecordsOfUser, deleteRateLimitRows, deleteTokensOfUser, deleteUserRow } from "../identity/index.ts";
import { deleteUserQuotaBuckets, releaseUserConnections } from "../connections/index.ts";
import { deleteWebhookDeliveriesAboutUser } from "../webhooks/index.ts";
import { discardFhirExportsHoldingUser } from "../fhir/index.ts";

/**
 * Erases one user already marked `deleting`: grants revoked at the providers (best effort),
 * FHIR exports holding the user's data, raw files, then every row of the user in one
 * transaction, which `finish` joins (the user deletion writes `user.deleted` and ends its job
 * there). Used by the user deletion and, per user, by the tenant deletion, so both delete the
 * same way. Safe to run again after a crash: every step is idempotent.
 */
export async function eraseUser(
  deps: CoreDeps,
  user: { tenantId: string; userId: string },
  finish: (tx: DbClient) => Promise<void> = async () => {},
): Promise<void> {
  const { db, rawStore } = deps;
  // The grants are revoked and subscriptions removed at the providers while the connection
  // rows still hold the tokens; best effort, it never fails the deletion.
  await releaseUserConnections(deps, user.tenantId, user.userId).catch(() => {});
  // Exports holding the user's data, all-patients ones included: while the user row still dates them.
  await discardFhirExportsHoldingUser(deps, user);
  // Raw files first: a crash after this leaves rows that point at nothing, and the retry deletes them.
  await rawStore.deleteUser(user.userId);
  await db.$transaction(async (tx) => {
    await deleteTokensOfUser(tx, user.userId);
    await deleteIdempotencyRecordsOfUser(tx, user.userId);
    await deleteRateLimitRows(tx, [`user:${user.userId}`]);
    // Before the user row: the buckets are found through the user's connections.
    await deleteUserQuotaBuckets(tx, user.userId);
    // Every other row of the user goes with it (foreign keys with ON DELETE CASCADE).
    await deleteUserRow(tx, user.userId);
    await deleteWebhookDeliveriesAboutUser(tx, user.userId);
    await finish(tx);
  });
}
