// Timing helpers of the benchmarks: run a call many times, then read percentiles.

/** Runs `run` once to warm up, then `iterations` times; the durations in ms, sorted. */
export async function timed(iterations: number, run: () => Promise<unknown>): Promise<number[]> {
  await run();
  const times: number[] = [];
  for (let i = 0; i < iterations; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

/** The p-th percentile (0 to 1) of sorted durations. */
export const pct = (times: readonly number[], p: number): number => times[Math.floor((times.length - 1) * p)]!;

/** A duration for a table column. */
export const ms = (value: number): string => `${value.toFixed(1).padStart(7)} ms`;
