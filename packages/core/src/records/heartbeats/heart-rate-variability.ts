/**
 * HRV of one heartbeat series, from its RR intervals in beat order.
 *
 * - An interval counts when it is physiologically possible (250 to 2500 ms, i.e. 24 to 240
 *   beats per minute) and not preceded by a gap (beats are missing before it, so it does
 *   not measure one beat-to-beat interval). Impossible intervals are artefacts (missed or
 *   extra beats): they stay stored and listed, but no figure uses them.
 * - mean RR: the mean of the counted intervals; mean heart rate: 60000 / mean RR.
 * - SDNN: the sample standard deviation (n - 1) of the counted intervals; null below two.
 * - RMSSD: the root mean square of the successive differences, taken only between two
 *   adjacent intervals that both count (so never across a gap or a dropped interval);
 *   null without any such pair.
 * - pNN50: the percentage (0 to 100) of those successive differences larger than 50 ms.
 * Every figure is null when no interval counts.
 */
export interface RrIntervalInput {
  intervalMs: number;
  precededByGap: boolean;
}

export interface HrvFigures {
  rmssdMs: number | null;
  sdnnMs: number | null;
  pnn50: number | null;
  meanRrMs: number | null;
  meanHeartRate: number | null;
}

export const MIN_RR_MS = 250;
export const MAX_RR_MS = 2500;

export const countsForHrv = (rr: RrIntervalInput): boolean =>
  !rr.precededByGap && rr.intervalMs >= MIN_RR_MS && rr.intervalMs <= MAX_RR_MS;

export function computeHrv(intervals: readonly RrIntervalInput[]): HrvFigures {
  const counted: number[] = [];
  const differences: number[] = [];
  let previous: RrIntervalInput | undefined;
  for (const rr of intervals) {
    if (countsForHrv(rr)) {
      counted.push(rr.intervalMs);
      if (previous && countsForHrv(previous)) differences.push(rr.intervalMs - previous.intervalMs);
    }
    previous = rr;
  }
  if (counted.length === 0) return { rmssdMs: null, sdnnMs: null, pnn50: null, meanRrMs: null, meanHeartRate: null };
  const meanRr = counted.reduce((sum, rr) => sum + rr, 0) / counted.length;
  const sdnn =
    counted.length < 2 ? null : Math.sqrt(counted.reduce((sum, rr) => sum + (rr - meanRr) ** 2, 0) / (counted.length - 1));
  const rmssd = differences.length === 0 ? null : Math.sqrt(differences.reduce((sum, d) => sum + d * d, 0) / differences.length);
  const pnn50 = differences.length === 0 ? null : (100 * differences.filter((d) => Math.abs(d) > 50).length) / differences.length;
  return { rmssdMs: rmssd, sdnnMs: sdnn, pnn50, meanRrMs: meanRr, meanHeartRate: 60_000 / meanRr };
}
