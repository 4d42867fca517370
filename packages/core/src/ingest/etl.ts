import { Readable } from "node:stream";
import { AppError, type DbClient, rawObjectSource, type RawObjectSource } from "../platform/index.ts";
import type { CoreDeps } from "../deps.ts";
import {
  findOlderPendingRawObjects,
  findRawObject,
  lockRawObject,
  lockUserEtl,
  markRawObjectFailed,
  markRawObjectProcessed,
  type RawObjectRow,
} from "./raw-object-repository.ts";
import { insertRejectedRecords, type ParsedRecords } from "../records/index.ts";
import { findUserById, type UserRow } from "../identity/index.ts";
import { insertDataWrittenEvent } from "./data-written.ts";
import { emitEvent } from "../events/index.ts";
import { localDayRange } from "./local-days.ts";
import { noChanges, refreshStaleDailyTotals, writeParsedRecords } from "./record-bundle.ts";

/**
 * Turns a raw object's bytes into batches of records; throws an AppError bad_request for a
 * body it cannot read at all. The source gives the bytes in order, or by range (a zip).
 */
export type RawObjectParser = (raw: { format: string; contentType: string }, source: RawObjectSource) => AsyncIterable<ParsedRecords>;

/** One upload of a million samples runs in one transaction (its rows and its event together). */
const ETL_TRANSACTION_TIMEOUT_MS = 30 * 60_000;

/**
 * The ETL of one raw object: parses its bytes and writes every record through the
 * writers in one transaction, with one data.written event when anything was new or
 * changed (a repeat of stored records writes and sends nothing), and one data.deleted
 * event when records the provider reported deleted were removed. A body that cannot be
 * read at all marks the raw object failed with a rejected record; other errors throw so
 * the job is retried. Running it again for a processed object does nothing, also when two
 * attempts overlap (a retry of an attempt that only looked dead waits for it, then stops).
 *
 * A user's raw objects are processed one at a time, in the order they were received: the
 * user's older ones still pending are processed first. pg-boss runs one ETL job of a user at
 * a time, but two workers fetching at the same moment can each start one, and a job waiting
 * for a retry lets the next one of the user start.
 */
export async function processRawObject(deps: CoreDeps, rawObjectId: string, parse: RawObjectParser): Promise<void> {
  const raw = await findRawObject(deps.db, rawObjectId);
  if (!raw || raw.status !== "pending") return;
  const user = await findUserById(deps.db, raw.userId);
  if (!user || user.status !== "active") return;
  for (const older of await findOlderPendingRawObjects(deps.db, raw)) await processOne(deps, user, older, parse);
  await processOne(deps, user, raw, parse);
}

async function processOne(deps: CoreDeps, user: UserRow, raw: RawObjectRow, parse: RawObjectParser): Promise<void> {
  const batch = { userId: raw.userId, provider: raw.provider, rawObjectId: raw.id };
  try {
    await deps.db.$transaction(
      async (tx) => {
        await lockUserEtl(tx, raw.userId);
        if ((await lockRawObject(tx, raw.id)) !== "pending") return;
        const changes = noChanges();
        const days: { first?: string; last?: string } = {};
        // One batch parsed ahead: the parser works while PostgreSQL writes the batch before.
        const parsedAhead = Readable.from(parse(raw, rawObjectSource(deps.rawStore, raw.storageKey, Number(raw.byteSize))), { highWaterMark: 1 });
        for await (const parsed of parsedAhead as AsyncIterable<ParsedRecords>) {
          await writeParsedRecords(tx, batch, parsed, changes, { deferDailyTotals: true });
          localDayRange(parsed, days);
        }
        await refreshStaleDailyTotals(tx, batch, changes);
        await insertDataWrittenEvent(tx, deps.jobs, user, raw.provider, changes, days);
        if (changes.deleted > 0) {
          await emitEvent(tx, deps.jobs, {
            tenantId: user.tenantId,
            type: "data.deleted",
            userId: user.id,
            data: { user_id: user.id, external_ref: user.externalRef, provider: raw.provider, records_deleted: changes.deleted },
          });
        }
        await markRawObjectProcessed(tx, raw.id, {
          records: changes.records,
          rejected: changes.rejected,
          ...(changes.skipped > 0 && { skipped_without_consent: changes.skipped }),
        });
      },
      { timeout: ETL_TRANSACTION_TIMEOUT_MS, maxWait: 60_000 },
    );
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== "bad_request") throw error;
    await insertRejectedRecords(deps.db, batch, [{ recordKind: "raw_object", locator: null, reason: error.detail }]);
    await markRawObjectFailed(deps.db, raw.id, error.detail);
  }
}

/** After the last failed attempt: the raw object stays, marked failed (its bytes can be processed again later). */
export async function giveUpRawObject(db: DbClient, rawObjectId: string): Promise<void> {
  await markRawObjectFailed(db, rawObjectId, "Processing failed after every retry.");
}
