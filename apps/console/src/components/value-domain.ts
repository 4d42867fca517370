/**
 * The value axis of readings and measurements: from the lowest to the highest value with a
 * margin of a tenth of their range on each side (body mass between 80.1 and 80.9 kg fills the
 * chart instead of hugging its top above an empty 0 to 80). Amounts (sums, counts) keep the
 * default axis from 0. Undefined when there is no value.
 */
export function paddedDomain(values: Iterable<number>): [number, number] | undefined {
  let low = Infinity;
  let high = -Infinity;
  for (const value of values) {
    if (!Number.isFinite(value)) continue;
    low = Math.min(low, value);
    high = Math.max(high, value);
  }
  if (low > high) return undefined;
  const margin = high > low ? (high - low) / 10 : Math.max(Math.abs(low) / 100, 1);
  const lower = low >= 0 && low - margin < 0 ? 0 : low - margin;
  return [roundDown(lower, margin), roundUp(high + margin, margin)];
}

/** A step of 1, 2 or 5 times a power of ten near `margin`, so axis ends are round numbers. */
function stepOf(margin: number): number {
  const power = 10 ** Math.floor(Math.log10(margin));
  const scaled = margin / power;
  return (scaled < 2 ? 1 : scaled < 5 ? 2 : 5) * power;
}

function roundDown(value: number, margin: number): number {
  const step = stepOf(margin);
  return Number((Math.floor(value / step) * step).toPrecision(12));
}

function roundUp(value: number, margin: number): number {
  const step = stepOf(margin);
  return Number((Math.ceil(value / step) * step).toPrecision(12));
}
