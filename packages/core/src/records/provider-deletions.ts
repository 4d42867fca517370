import type { DbClient } from "../platform/index.ts";
import {
  deleteCategorySamplesByDedupeKeys,
  deleteOtherRecordsByDedupeKeys,
} from "./provider-deletion-repository.ts";
import { deleteSamplesByExternalIds } from "./samples/sample-chunks.ts";
import { insertAnyKindTombstones } from "./tombstone-repository.ts";
import { affectsDailyTotals, refreshDerivedDailyTotals } from "./daily/daily-totals.ts";
import { MENSTRUAL_FLOW, recomputeMenstrualCycles } from "./menstrual-cycles/menstrual-cycles.ts";
import { externalIdentity } from "./samples/sample-identity.ts";

/**
 * Applies what a provider reported deleted (HealthKit deleted objects, Health Connect
 * deletion records), by the provider's own record ids: removes the provider's records
 * with those ids, of any kind, and leaves tombstones so a late copy is never stored
 * again. Derived daily totals and menstrual cycles follow. Returns how many records were
 * removed. Call inside the caller's transaction, after the batch's records are written.
 */
export async function applyProviderDeletions(
  db: DbClient,
  batch: { userId: string; provider: string },
  externalIds: readonly string[],
): Promise<number> {
  if (externalIds.length === 0) return 0;
  const dedupeKeys = [...new Set(externalIds)].map(externalIdentity);
  await insertAnyKindTombstones(db, batch, dedupeKeys);

  const samples = await deleteSamplesByExternalIds(db, batch, [...new Set(externalIds)]);
  const sampleTypes = new Set(samples.map((sample) => sample.type));
  if (affectsDailyTotals(sampleTypes)) {
    const days = new Set(samples.map((sample) => sample.start_date.toISOString().slice(0, 10)));
    await refreshDerivedDailyTotals(db, batch.userId, batch.provider, [...days]);
  }
  const categorySamples = await deleteCategorySamplesByDedupeKeys(db, batch, dedupeKeys);
  if (categorySamples.some((sample) => sample.type === MENSTRUAL_FLOW)) await recomputeMenstrualCycles(db, batch.userId);

  return samples.length + categorySamples.length + (await deleteOtherRecordsByDedupeKeys(db, batch, dedupeKeys));
}
