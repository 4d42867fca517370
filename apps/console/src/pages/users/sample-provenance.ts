import type { MirrorOutputs } from "../../components/mirror-outputs.ts";

export type Sample = MirrorOutputs["listTenantSamples"]["data"][number];
export type Stats = MirrorOutputs["getTenantSampleStats"];

/** A stream's name as the merged view names it: provider/source, the provider when the vendor is unknown. */
export function streamOf(sample: { provider: string; source: string | null }): string {
  return `${sample.provider}/${sample.source ?? sample.provider}`;
}

/** What the merged view did with one stream's samples. */
export interface StreamOutcome {
  stream: string;
  /** Samples of the stream in the window (view all). */
  samples: number;
  /** Samples of the stream the merged view kept. */
  kept: number;
  /** Kept samples of the stream that were preferred to another stream's matching sample; null when counted from statistics. */
  won: number | null;
  /** Times a kept sample of a better ranked stream left this stream's matching sample out; null when counted from statistics. */
  outranked: number | null;
}

/**
 * Per stream: samples in the window, kept in the merged view, and how often it won or was
 * outranked, from the samples' provenance and their `outranked` lists. Sorted by stream.
 */
export function streamOutcomes(all: Sample[], merged: Sample[]): StreamOutcome[] {
  type Counted = StreamOutcome & { won: number; outranked: number };
  const outcomes = new Map<string, Counted>();
  const of = (stream: string) => {
    let outcome = outcomes.get(stream);
    if (!outcome) outcomes.set(stream, (outcome = { stream, samples: 0, kept: 0, won: 0, outranked: 0 }));
    return outcome;
  };
  for (const sample of all) of(streamOf(sample)).samples += 1;
  for (const sample of merged) {
    const winner = of(streamOf(sample));
    winner.kept += 1;
    const losers = sample.outranked ?? [];
    if (losers.length > 0) winner.won += 1;
    for (const loser of losers) of(`${loser.provider}/${loser.source}`).outranked += 1;
  }
  return [...outcomes.values()].sort((a, b) => a.stream.localeCompare(b.stream));
}

/** A stats bucket's stream: the same `provider/source` name as a sample's (the bucket's source is the provider when the vendor is unknown). */
export function streamOfBucket(bucket: { provider: string; source: string }): string {
  return `${bucket.provider}/${bucket.source}`;
}

/**
 * Per stream: samples in the window (statistics of view all) and kept in the merged view
 * (statistics of view merged), for windows with too many samples to read one by one. Which
 * sample won over which needs the samples' `outranked` lists: won and outranked stay null.
 */
export function streamOutcomesFromStats(all: Stats, merged: Stats): StreamOutcome[] {
  const outcomes = new Map<string, StreamOutcome>();
  const of = (stream: string) => {
    let outcome = outcomes.get(stream);
    if (!outcome) outcomes.set(stream, (outcome = { stream, samples: 0, kept: 0, won: null, outranked: null }));
    return outcome;
  };
  for (const bucket of all.buckets) of(streamOfBucket(bucket)).samples += bucket.count;
  for (const bucket of merged.buckets) of(streamOfBucket(bucket)).kept += bucket.count;
  return [...outcomes.values()].sort((a, b) => a.stream.localeCompare(b.stream));
}
