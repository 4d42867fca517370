import { type DbClient, isTimeZone, localDate } from "../../platform/index.ts";
import {
  deleteDerivedDailySummaries,
  lockDerivedDailySummaries,
  upsertDailySummaries,
  type DailySummaryWrite,
} from "./daily-summary-repository.ts";
import { listProviderSamplesForTotals } from "../samples/quantity-sample-repository.ts";
import { keepMergedCounts } from "../merge/merged-counts.ts";
import { listSampleStreams } from "../samples/sample-stream-repository.ts";
import { rankStreamsForMetric } from "../merge/source-orders.ts";

/**
 * Derived daily totals (spec, Reads: "step, energy and distance daily totals per provider
 * and local day are derived from samples when a provider sends no daily summary").
 *
 * For one provider and local day: steps, active energy, total energy (active + basal) and
 * walking/running distance are the sums of the provider's samples in the merged view of
 * that provider's own streams, so its phone and its watch counting the same minutes are
 * counted once. A sample belongs to the local date of its start in its metadata.timezone
 * (UTC when it has none). The row is `derived`; a summary the provider sent for the day
 * is never replaced, and the derived row is deleted when the day has no samples left.
 *
 * The merge runs in memory (merge/merged-counts.ts, the merged view's rule for counts) over
 * a plain range read rather than in the merged view's SQL: this runs inside the transaction
 * that just bulk-inserted the samples, where table statistics are stale and the SQL's
 * correlated probes can degrade to a scan per sample.
 */
export const DAILY_TOTAL_TYPES = ["step_count", "active_energy_burned", "basal_energy_burned", "distance_walking_running"] as const;
type DailyTotalType = (typeof DAILY_TOTAL_TYPES)[number];

const DAY_MS = 86_400_000;

/** Whether samples of these types feed derived daily totals. */
export function affectsDailyTotals(types: Iterable<string>): boolean {
  for (const type of types) if ((DAILY_TOTAL_TYPES as readonly string[]).includes(type)) return true;
  return false;
}

interface Day {
  totals: Partial<Record<DailyTotalType, number>>;
  zones: Set<string>;
  sources: Set<string | null>;
  devices: Set<string | null>;
  onBody: boolean;
}

/**
 * Recomputes the provider's derived daily totals for every local day that samples on the
 * given UTC days can fall on (the day before, the day, the day after). Call inside the
 * caller's transaction, after the samples are written.
 */
export async function refreshDerivedDailyTotals(db: DbClient, userId: string, provider: string, utcDays: readonly string[]): Promise<void> {
  const candidates = new Set<number>();
  for (const day of utcDays) {
    const midnight = Date.parse(`${day}T00:00:00Z`);
    if (Number.isNaN(midnight)) continue;
    for (const shift of [-1, 0, 1]) candidates.add(midnight + shift * DAY_MS);
  }
  if (candidates.size === 0) return;
  await lockDerivedDailySummaries(db, userId, provider);
  const streamsOf = new Map<DailyTotalType, ProviderStreams>();
  for (const type of DAILY_TOTAL_TYPES) {
    const streams = await rankedProviderStreams(db, userId, provider, type);
    if (streams.ranks.size > 0) streamsOf.set(type, streams);
  }
  for (const chunk of chunksOfDays([...candidates].sort((a, b) => a - b))) {
    const days = new Map<string, Day>();
    for (const [type, streams] of streamsOf) {
      // Samples of a local date start within 14 hours before its UTC midnight and 12 after its
      // end; a better ranked sample overlapping one of them starts at most the longest sample earlier.
      const window = {
        start: new Date(chunk.first - DAY_MS - streams.maxDurationMs - 1),
        end: new Date(chunk.last + 2 * DAY_MS),
      };
      const samples = await listProviderSamplesForTotals(db, { userId, provider, type, ...window });
      const ranked = samples.map((sample) => ({
        ...sample,
        startMs: sample.start_date.getTime(),
        endMs: sample.end_date.getTime(),
        rank: streams.ranks.get(streamKey(sample.source_key, sample.on_body)) ?? Number.MAX_SAFE_INTEGER,
      }));
      for (const sample of keepMergedCounts(ranked)) {
        const zone = sample.timezone !== null && isTimeZone(sample.timezone) ? sample.timezone : "UTC";
        const date = localDate(sample.start_date, zone);
        const midnight = Date.parse(`${date}T00:00:00Z`);
        if (midnight < chunk.first || midnight > chunk.last || !candidates.has(midnight)) continue;
        let day = days.get(date);
        if (!day) {
          day = { totals: {}, zones: new Set(), sources: new Set(), devices: new Set(), onBody: false };
          days.set(date, day);
        }
        day.totals[type] = (day.totals[type] ?? 0) + sample.value;
        day.zones.add(zone);
        day.sources.add(sample.source);
        day.devices.add(sample.device);
        day.onBody ||= sample.on_body;
      }
    }
    const rows = [...days].map(([date, day]) => derivedSummary(provider, date, day));
    await upsertDailySummaries(db, { userId, provider, rawObjectId: null }, rows, true);
    const empty = chunk.days.map(isoDate).filter((date) => !days.has(date));
    await deleteDerivedDailySummaries(db, userId, provider, empty);
  }
}

interface ProviderStreams {
  /** Rank (0 is the best) by streamKey. */
  ranks: Map<string, number>;
  maxDurationMs: number;
}

const streamKey = (sourceKey: string, onBody: boolean) => `${sourceKey}\u0000${onBody}`;

/** The provider's own streams of a type ranked for the merged view, without other providers' streams. */
async function rankedProviderStreams(db: DbClient, userId: string, provider: string, type: string): Promise<ProviderStreams> {
  const streams = (await listSampleStreams(db, userId, type)).filter((stream) => stream.provider === provider);
  const ranked = streams.length === 0 ? [] : await rankStreamsForMetric(db, userId, type, streams);
  return {
    ranks: new Map(ranked.map((stream) => [streamKey(stream.sourceKey, stream.onBody), stream.rank])),
    maxDurationMs: Math.max(0, ...streams.map((stream) => stream.maxDurationSeconds)) * 1000,
  };
}

function derivedSummary(provider: string, date: string, day: Day): DailySummaryWrite {
  const only = <T>(values: Set<T>): T | null => (values.size === 1 ? ([...values][0] ?? null) : null);
  const { step_count, active_energy_burned, basal_energy_burned, distance_walking_running } = day.totals;
  const source = only(day.sources);
  return {
    date,
    timezone: only(day.zones),
    steps: roundSum(step_count),
    distanceMeters: roundSum(distance_walking_running),
    activeEnergyKcal: roundSum(active_energy_burned),
    totalEnergyKcal: basal_energy_burned === undefined ? null : roundSum((active_energy_burned ?? 0) + basal_energy_burned),
    floorsClimbed: null,
    activeSeconds: null,
    restingHeartRate: null,
    averageHeartRate: null,
    hrvRmssd: null,
    sleepSeconds: null,
    score: null,
    metadata: { derived_from: DAILY_TOTAL_TYPES.filter((type) => day.totals[type] !== undefined) },
    source,
    sourceKey: source ?? provider,
    device: only(day.devices),
    onBody: day.onBody,
  };
}

const CHUNK_DAYS = 31;

/**
 * Days (UTC midnights, sorted) in chunks of consecutive days, at most CHUNK_DAYS each, so
 * a sparse set of days is not one wide read and a long import is not one huge one.
 */
function chunksOfDays(midnights: number[]): Array<{ first: number; last: number; days: number[] }> {
  const chunks: Array<{ first: number; last: number; days: number[] }> = [];
  for (const midnight of midnights) {
    const chunk = chunks.at(-1);
    if (chunk && midnight - chunk.last <= DAY_MS && chunk.days.length < CHUNK_DAYS) {
      chunk.last = midnight;
      chunk.days.push(midnight);
    } else {
      chunks.push({ first: midnight, last: midnight, days: [midnight] });
    }
  }
  return chunks;
}

const isoDate = (midnight: number) => new Date(midnight).toISOString().slice(0, 10);

/** A sum of many samples, rid of floating-point noise (9931.689999999995 -> 9931.69). */
const roundSum = (value: number | undefined): number | null => (value === undefined ? null : Math.round(value * 1e6) / 1e6);
