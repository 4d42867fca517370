import type { CoreDeps } from "../../deps.ts";
import { AppError } from "../../platform/index.ts";
import { ProviderError, type Connector, type ProviderKeys } from "../providers/connector.ts";
import { resolveProviderUrls } from "../providers/provider-settings.ts";
import {
  findSyncConnection,
  lockSyncConnection,
  recordPullFailure,
  recordPullSuccess,
  type SyncConnectionRow,
} from "../connection-health-repository.ts";
import {
  claimSyncRun,
  countOpenSyncRuns,
  endRunningSyncRun,
  endWaitingSyncRun,
  failWaitingRunsOfConnection,
  findSyncRunById,
  type SyncRunRow,
} from "../sync-run-repository.ts";
import { storeRawPayload } from "../../ingest/index.ts";
import { ConnectionNotActive, ConnectionTokens } from "./connection-tokens.ts";
import { markBroken, markRestored, moveToNeedsReauth } from "./health-moves.ts";
import { QuotaSpent } from "./provider-quotas.ts";
import { pullClient } from "./pull-client.ts";
import { sendPullJob } from "./pull-jobs.ts";
import { syncAttemptsLimit } from "./sync-settings.ts";

/** What one attempt of a run did; safe to log (ids, states, our words of the provider's error). */
export type SyncAttemptResult =
  | { result: "nothing-to-do" }
  | {
      result: "succeeded" | "retrying" | "rate_limited" | "failed" | "cancelled";
      runId: string;
      provider: string;
      attempts: number;
      objectsStored: number;
      error: string | null;
      nextAttemptAt: Date | null;
      /** True when the provider was not called (the run ended on the connection's or provider's state). */
      providerNotReached: boolean;
      /** An unexpected error of the connector, for the logs (its message is in `error`). */
      cause?: unknown;
    };

const PAYLOAD_CONTENT_TYPE = "application/json";

/**
 * One attempt of one sync run (the `sync-pull` job). A run whose connection does not sync
 * (disconnected, needs_reauth, keys gone) or whose provider does not run for the tenant ends
 * without a call to the provider. Otherwise: running, the connector's pull with a client that
 * counts quotas and keeps the token fresh, each payload stored as a raw object (ETL queued),
 * and the next state with its job and health events in one transaction.
 * `takeRunning`: pg-boss retried the job after its worker died, so the run may be `running`.
 */
export async function attemptSyncRun(deps: CoreDeps, runId: bigint, takeRunning: boolean): Promise<SyncAttemptResult> {
  const run = await findSyncRunById(deps.db, runId);
  if (!run || !["queued", "retrying", "rate_limited", ...(takeRunning ? ["running"] : [])].includes(run.status)) return { result: "nothing-to-do" };
  const connection = await findSyncConnection(deps.db, run.connectionId);
  if (!connection) return { result: "nothing-to-do" };
  const connector = deps.providers.connector(run.provider);

  const ready = await readiness(deps, connection, connector);
  if (ready.kind !== "ready") return endWithoutPull(deps, run, connection, ready);

  const claimed = await claimSyncRun(deps.db, run.id, takeRunning, new Date());
  if (!claimed) return { result: "nothing-to-do" };

  let stored = 0;
  try {
    const urls = resolveProviderUrls(ready.connector, deps.providerConfig.settings);
    const tokens = new ConnectionTokens(deps, { connector: ready.connector, urls, keys: ready.keys, connectionId: connection.id });
    await tokens.accessToken();
    const client = pullClient(deps, { connector: ready.connector, urls, keys: ready.keys, connection, trigger: run.trigger, tokens });
    await ready.connector.pull({
      ...client,
      providerUserId: connection.providerUserId,
      scopes: connection.scopes,
      window: { start: run.windowStart, end: run.windowEnd },
      dataType: run.dataType,
      store: async (format, payload) => {
        if (!ready.connector.parsers[format]) throw new ProviderError("failed", `The connector stored a payload of format ${format}, which it cannot parse.`);
        const target = { userId: run.userId, provider: run.provider, format, contentType: PAYLOAD_CONTENT_TYPE };
        try {
          const { stored: isNew } = await storeRawPayload(deps, target, Buffer.from(JSON.stringify(payload)));
          if (isNew) stored += 1;
        } catch (error) {
          throw error instanceof AppError ? error : new StoreFailed(error);
        }
      },
    });
  } catch (error) {
    // Our own failure (database, raw store), not the provider's: the job fails and pg-boss retries the attempt.
    if (error instanceof StoreFailed) throw error.cause;
    return endAfterError(deps, claimed, connection, error, stored);
  }
  return endSucceeded(deps, claimed, connection, stored);
}

/** Storing a payload failed on our side (not a refusal of the user's state). */
class StoreFailed extends Error {
  constructor(cause: unknown) {
    super("Storing a provider payload failed.", { cause });
    this.name = "StoreFailed";
  }
}

type Readiness =
  | { kind: "ready"; connector: Connector; keys: ProviderKeys }
  | { kind: "end"; status: "failed" | "cancelled"; error: string }
  | { kind: "keys_changed"; error: string };

/** Whether the run can reach the provider, or how it ends without doing so. */
async function readiness(deps: CoreDeps, connection: SyncConnectionRow, connector: Connector | undefined): Promise<Readiness> {
  if (connection.user.status !== "active") return { kind: "end", status: "cancelled", error: "The user is being deleted." };
  if (connection.status === "disconnected") return { kind: "end", status: "cancelled", error: "The connection was disconnected." };
  if (connection.status === "needs_reauth") return { kind: "end", status: "failed", error: "The connection needs the user's reauth; the provider was not reached." };
  if (!connector) return { kind: "end", status: "failed", error: `This build has no connector for ${connection.provider}.` };
  const tenantId = connection.user.tenantId;
  const availability = await deps.providerConfig.availability(tenantId, connector);
  if (!availability.enabled) {
    return { kind: "end", status: "cancelled", error: "The provider was switched off for the tenant; it was not reached." };
  }
  if (!availability.available) {
    return { kind: "end", status: "cancelled", error: "The provider is not enabled on this instance; it was not reached." };
  }
  const keys = await deps.providerConfig.forConnection(tenantId, connector, connection);
  if (!keys || keys.applicationId !== connection.applicationId) {
    return { kind: "keys_changed", error: "The keys the connection was made with are gone or name another application; the user must reconnect." };
  }
  return { kind: "ready", connector, keys: keys.keys };
}

async function endWithoutPull(
  deps: CoreDeps,
  run: SyncRunRow,
  connection: SyncConnectionRow,
  ready: Exclude<Readiness, { kind: "ready" }>,
): Promise<SyncAttemptResult> {
  const status = ready.kind === "keys_changed" ? "failed" : ready.status;
  const ended = await deps.db.$transaction(async (tx) => {
    if (!(await endWaitingSyncRun(tx, run.id, { status, error: ready.error }))) return false;
    if (ready.kind === "keys_changed") {
      await moveToNeedsReauth(deps, tx, connection, "keys_changed", new Date());
      await failWaitingRunsOfConnection(tx, connection.id, run.id, ready.error);
    }
    return true;
  });
  if (!ended) return { result: "nothing-to-do" };
  return outcome(run, status, { attempts: run.attempts, objectsStored: 0, error: ready.error, providerNotReached: true });
}

async function endSucceeded(deps: CoreDeps, run: SyncRunRow, found: SyncConnectionRow, stored: number): Promise<SyncAttemptResult> {
  const now = new Date();
  const objectsStored = (run.objectsStored ?? 0) + stored;
  const ended = await deps.db.$transaction(async (tx) => {
    const connection = (await lockSyncConnection(tx, found.id)) ?? found;
    if (!(await endRunningSyncRun(tx, run.id, { status: "succeeded", objectsStored, error: null, finishedAt: now }))) return false;
    if (connection.status !== "active") return true;
    const syncedThrough = connection.syncedThrough && connection.syncedThrough > run.windowEnd ? connection.syncedThrough : run.windowEnd;
    // The initial backfill is done when its last chunk ends.
    const backfillDone = run.trigger === "backfill" && connection.initialBackfillAt === null && (await countOpenSyncRuns(tx, connection.id, "backfill")) === 0;
    await recordPullSuccess(tx, connection.id, { at: now, syncedThrough, ...(backfillDone && { initialBackfillAt: now }) });
    await markRestored(deps, tx, connection, now);
    return true;
  });
  if (!ended) return outcome(run, "cancelled", { attempts: run.attempts, objectsStored, error: "The connection was disconnected." });
  return outcome(run, "succeeded", { attempts: run.attempts, objectsStored, error: null });
}

/** The run's next state after the pull threw: by the kind of the provider's error. */
async function endAfterError(deps: CoreDeps, run: SyncRunRow, found: SyncConnectionRow, error: unknown, stored: number): Promise<SyncAttemptResult> {
  const now = new Date();
  const objectsStored = (run.objectsStored ?? 0) + stored;
  const settings = deps.sync;

  // Stopped from outside: disconnected, moved to needs_reauth, the user's deletion or an erasure started.
  if (error instanceof ConnectionNotActive || (error instanceof AppError && (error.code === "gone" || error.code === "conflict"))) {
    const status = error instanceof ConnectionNotActive && error.status === "needs_reauth" ? "failed" : "cancelled";
    const message = error instanceof AppError ? error.detail : error.message;
    await endRunningSyncRun(deps.db, run.id, { status, objectsStored, error: message, finishedAt: now });
    return outcome(run, status, { attempts: run.attempts, objectsStored, error: message });
  }

  // The provider (or our own count of its quota) asks to wait: not a failed attempt.
  if (error instanceof QuotaSpent || (error instanceof ProviderError && error.kind === "rate_limited")) {
    const nextAttemptAt =
      error instanceof QuotaSpent
        ? error.retryAt
        : new Date(now.getTime() + (error.retryAfterSeconds !== null ? error.retryAfterSeconds * 1000 : settings.rateLimitedDefaultMs));
    const message = error.message;
    const ended = await deps.db.$transaction(async (tx) => {
      const connection = (await lockSyncConnection(tx, found.id)) ?? found;
      const moved = await endRunningSyncRun(tx, run.id, { status: "rate_limited", objectsStored, error: message, nextAttemptAt, finishedAt: null });
      if (!moved) return false;
      await sendPullJob(deps, tx, run, connection.applicationId, nextAttemptAt);
      if (nextAttemptAt.getTime() - run.createdAt.getTime() > settings.quotaBrokenAfterMs && connection.status === "active") {
        await markBroken(deps, tx, connection, {
          reason: "provider_quota",
          retryAt: nextAttemptAt,
          lastError: message,
          consecutiveFailures: connection.consecutiveFailures,
          now,
        });
      }
      return true;
    });
    if (!ended) return outcome(run, "cancelled", { attempts: run.attempts, objectsStored, error: "The connection was disconnected." });
    return outcome(run, "rate_limited", { attempts: run.attempts, objectsStored, error: message, nextAttemptAt });
  }

  const attempts = run.attempts + 1;
  const kind = error instanceof ProviderError ? error.kind : "failed";
  const message = errorMessage(error);

  if (kind === "refused" || kind === "permission") {
    const ended = await deps.db.$transaction(async (tx) => {
      const connection = (await lockSyncConnection(tx, found.id)) ?? found;
      if (!(await endRunningSyncRun(tx, run.id, { status: "failed", attempts, objectsStored, error: message, finishedAt: now }))) return false;
      if (connection.status !== "active") return true;
      const failures = await recordPullFailure(tx, connection, { error: message, at: now, countsAsFailure: true });
      if (kind === "refused") {
        await moveToNeedsReauth(deps, tx, connection, "needs_reauth", now);
        await failWaitingRunsOfConnection(tx, connection.id, run.id, "The provider refused the grant; the user must reconnect.");
      } else {
        await markBroken(deps, tx, connection, { reason: "permission_missing", retryAt: null, lastError: message, consecutiveFailures: failures, now });
      }
      return true;
    });
    if (!ended) return outcome(run, "cancelled", { attempts: run.attempts, objectsStored, error: "The connection was disconnected." });
    return outcome(run, "failed", { attempts, objectsStored, error: message });
  }

  // Anything else is transient: retried after the schedule while attempts are left.
  const delayMs = attempts < syncAttemptsLimit(settings) ? settings.retryDelaysMs[attempts - 1] : undefined;
  const nextAttemptAt = delayMs === undefined ? null : new Date(now.getTime() + delayMs);
  const status = nextAttemptAt ? "retrying" : "failed";
  const ended = await deps.db.$transaction(async (tx) => {
    const connection = (await lockSyncConnection(tx, found.id)) ?? found;
    const moved = await endRunningSyncRun(tx, run.id, {
      status,
      attempts,
      objectsStored,
      error: message,
      nextAttemptAt,
      finishedAt: nextAttemptAt ? null : now,
    });
    if (!moved) return false;
    if (nextAttemptAt) await sendPullJob(deps, tx, run, connection.applicationId, nextAttemptAt);
    if (connection.status !== "active") return true;
    const failures = await recordPullFailure(tx, connection, { error: message, at: now, countsAsFailure: true });
    if (failures >= settings.brokenAfterFailures) {
      await markBroken(deps, tx, connection, { reason: "pulls_failing", retryAt: nextAttemptAt, lastError: message, consecutiveFailures: failures, now });
    }
    return true;
  });
  if (!ended) return outcome(run, "cancelled", { attempts: run.attempts, objectsStored, error: "The connection was disconnected." });
  return outcome(run, status, {
    attempts,
    objectsStored,
    error: message,
    nextAttemptAt,
    ...(!(error instanceof ProviderError) && { cause: error }),
  });
}

/**
 * The job of a run failed on every attempt pg-boss makes (the database failed, or workers
 * died): the run ends failed so it does not stay open for ever.
 */
export async function abandonSyncRun(deps: Pick<CoreDeps, "db">, runId: bigint): Promise<void> {
  const error = "The pull could not be run (internal error); the next scheduled pull tries again.";
  if (await endRunningSyncRun(deps.db, runId, { status: "failed", error, finishedAt: new Date() })) return;
  await endWaitingSyncRun(deps.db, runId, { status: "failed", error });
}

/**
 * The provider's error in our words. Any other error's message may quote what the provider
 * sent (a JSON parse error quotes the body): only its class is named.
 */
function errorMessage(error: unknown): string {
  if (error instanceof ProviderError) return error.message;
  return `The connector failed (${error instanceof Error ? error.name : "unknown error"}); the provider's answer could not be read.`;
}

function outcome(
  run: SyncRunRow,
  result: Exclude<SyncAttemptResult["result"], "nothing-to-do">,
  details: { attempts: number; objectsStored: number; error: string | null; nextAttemptAt?: Date | null; providerNotReached?: boolean; cause?: unknown },
): SyncAttemptResult {
  return {
    result,
    runId: run.id.toString(),
    provider: run.provider,
    attempts: details.attempts,
    objectsStored: details.objectsStored,
    error: details.error,
    nextAttemptAt: details.nextAttemptAt ?? null,
    providerNotReached: details.providerNotReached ?? false,
    ...(details.cause !== undefined && { cause: details.cause }),
  };
}
