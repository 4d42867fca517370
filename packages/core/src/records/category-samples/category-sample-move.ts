import type { LegacyMove } from "../legacy-moves.ts";
import { analyzeAfterBulkWrite, type DbClient } from "../../platform/index.ts";
import { lockUserCategorySamples } from "./category-sample-repository.ts";
import { firstLegacyCategoryUser, insertSeriesOfLegacyRows, lockLegacyCategoryRows, moveLegacyRows } from "./legacy-category-sample-repository.ts";

/**
 * Moves category samples stored one wide row each before the upgrade to series
 * (category_samples_legacy) into series, as the upgrade did inside its migration before. Until
 * then reads take them from the legacy table, and a writer of the user moves all of the user's
 * first (moveUserLegacyCategorySamples), so a sample sent again is found by its identity.
 */

/** Rows a batch moves at most, of one series (as many as the writer stores in one statement). */
const BATCH_ROWS = 5000;
/** Generous: a series not stored yet reads every legacy row of it for its zone. */
const MOVE_TIMEOUT_MS = 120_000;

export const categorySampleMove: LegacyMove = {
  table: "category_samples_legacy",
  async moveBatch(db) {
    // A user found before the lock may have been moved by a writer meanwhile (0 rows): the next one is taken then.
    for (let userId = await firstLegacyCategoryUser(db); userId !== null; userId = await firstLegacyCategoryUser(db)) {
      const user = userId;
      const moved = await db.$transaction(
        async (tx) => {
          await lockUserCategorySamples(tx, user);
          return moveLegacyBatch(tx, user);
        },
        { timeout: MOVE_TIMEOUT_MS },
      );
      if (moved > 0) return moved;
    }
    return 0;
  },
};

/**
 * Moves every category sample of the user not moved yet, a batch at a time, in the caller's
 * transaction, which holds the user's lock. A probe of one index entry when none is left.
 */
export async function moveUserLegacyCategorySamples(db: DbClient, userId: string): Promise<void> {
  while ((await moveLegacyBatch(db, userId)) > 0);
}

/** Moves rows not moved yet of one series of the user, the first by id; returns how many. */
async function moveLegacyBatch(db: DbClient, userId: string): Promise<number> {
  const ids = await lockLegacyCategoryRows(db, userId, BATCH_ROWS);
  if (ids.length === 0) return 0;
  await insertSeriesOfLegacyRows(db, userId, ids);
  const { deleted, stored } = await moveLegacyRows(db, userId, ids);
  // Every locked row finds the series just stored: anything else would lose samples.
  if (deleted !== ids.length || stored !== ids.length) throw new Error(`category samples: moved ${stored} of ${ids.length} legacy rows`);
  await analyzeAfterBulkWrite(db, "category_samples", stored);
  return stored;
}
