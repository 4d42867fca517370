import { formatTime } from "../../components/format.ts";
import type { Stats } from "./sample-provenance.ts";

/** Where statistics were cut (the API sums at most the earliest 50,000 samples) and the zone of their intervals. */
export function statsNote(stats: Stats): string {
  const zone = `Intervals in ${stats.tz}.`;
  if (!stats.truncated) return zone;
  const last = stats.buckets.at(-1)?.start;
  return `Cut: more than 50,000 samples matched, so these intervals count only the earliest 50,000${last ? `, up to the interval starting ${formatTime(last)}` : ""}; narrow the window to see the rest. ${zone}`;
}
