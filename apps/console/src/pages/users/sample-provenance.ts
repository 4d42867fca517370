import type { MirrorOutputs } from "../../components/mirror-outputs.ts";

export type Sample = MirrorOutputs["listTenantSamples"]["data"][number];

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
  /** Kept samples of the stream that were preferred to another stream's matching sample. */
  won: number;
  /** Times a kept sample of a better ranked stream left this stream's matching sample out. */
  outranked: number;
}

/**
 * Per stream: samples in the window, kept in the merged view, and how often it won or was
 * outranked, from the samples' provenance and their `outranked` lists. Sorted by stream.
 */
export function streamOutcomes(all: Sample[], merged: Sample[]): StreamOutcome[] {
  const outcomes = new Map<string, StreamOutcome>();
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

/** Colours of chart series, in order (dark shades: readable on a light background). */
export const SERIES_COLORS = ["blue.8", "orange.8", "teal.8", "grape.8", "red.8", "cyan.8", "lime.8", "pink.8", "indigo.8", "yellow.8"];
