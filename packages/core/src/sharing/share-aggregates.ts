import { Temporal } from "temporal-polyfill";
import {
  findQuantityType,
  matchKindOfType,
  mergedSampleBucketAggregates,
  rankedSampleStreams,
  resolveStatsIntervals,
} from "../records/index.ts";
import type { DayAggregate } from "../fhir/index.ts";
import type { DbClient } from "../platform/index.ts";

/**
 * The quantity types a share holds as daily aggregates (unless it asks for full detail):
 * counts (steps, energy, distance, floors...) and readings (heart rate, SpO2...), the
 * frequent samples. Body measurements, daily figures (resting heart rate, VO2 max, scores)
 * and the rest stay single samples; blood pressure stays panels.
 */
export function isAggregatedType(type: string): boolean {
  const merge = findQuantityType(type)?.merge_kind;
  return merge === "counts" || merge === "readings";
}

/** An instant as RFC 3339 in the zone's offset (no fraction when whole seconds). */
export const instantInZone = (ms: number, zone: string) => Temporal.Instant.fromEpochMilliseconds(ms).toZonedDateTimeISO(zone).toString({ timeZoneName: "never" });

/**
 * A type's samples in the window per local day of the zone, in the merged view: count, sum,
 * min and max of each day that has samples, from the providers `shared` lets through (a
 * revoked consent leaves a provider's samples out). The first and last day are cut to the
 * window.
 */
export async function dayAggregatesOf(
  db: DbClient,
  userId: string,
  q: { type: string; start: Date; end: Date; zone: string },
  shared: (provider: string) => boolean,
): Promise<DayAggregate[]> {
  const unit = findQuantityType(q.type)?.unit;
  if (unit === undefined) return [];
  const { boundaries } = resolveStatsIntervals({ start: q.start.toISOString(), end: q.end.toISOString(), interval: "day", tz: q.zone });
  if (boundaries.length < 2) return [];
  const kind = matchKindOfType(q.type).kind;
  if (kind !== "counts" && kind !== "readings") return [];
  const streams = await rankedSampleStreams(db, userId, q.type);
  const rows = await mergedSampleBucketAggregates(db, { userId, type: q.type, start: q.start, end: q.end }, boundaries, { streams, kind });

  const days = new Map<number, DayAggregate>();
  for (const row of rows) {
    if (!shared(row.provider)) continue;
    const [from, to] = [boundaries[row.bucket - 1], boundaries[row.bucket]];
    if (!from || !to) continue;
    let day = days.get(row.bucket);
    if (!day) {
      const startMs = Math.max(from.getTime(), q.start.getTime());
      day = {
        type: q.type,
        day: Temporal.Instant.fromEpochMilliseconds(from.getTime()).toZonedDateTimeISO(q.zone).toPlainDate().toString(),
        start: instantInZone(startMs, q.zone),
        end: instantInZone(Math.min(to.getTime(), q.end.getTime()), q.zone),
        zone: q.zone,
        providers: [],
        unit,
        count: 0,
        sum: 0,
        min: Number.POSITIVE_INFINITY,
        max: Number.NEGATIVE_INFINITY,
      };
      days.set(row.bucket, day);
    }
    day.providers.push(row.provider);
    day.count += row.count;
    day.sum += row.sum;
    day.min = Math.min(day.min, row.min);
    day.max = Math.max(day.max, row.max);
  }
  return [...days.values()].map((day) => ({ ...day, providers: [...new Set(day.providers)].sort() }));
}
