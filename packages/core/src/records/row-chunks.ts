/**
 * How the rows of a heartbeat series (RR intervals) or of a workout's route (points) are
 * grouped for storage: one chunk row holds up to CHUNK_ROWS consecutive rows as arrays, each
 * row's time an offset in milliseconds from the chunk's first. A new chunk starts every
 * CHUNK_ROWS rows and wherever the time passes a whole CHUNK_SPAN_MS since the parent's first
 * row, so a chunk never spans a day or more: reads rely on that bound to find the chunks a
 * page needs. The migration that grouped the stored rows (*_grouped_rr_and_route_points)
 * applies the same rule in SQL, so a series stored before or after it is laid out the same.
 */
export const CHUNK_ROWS = 4096;
export const CHUNK_SPAN_MS = 86_400_000;

/** For rows at `times` (in time order): each row's chunk number and its offset from its chunk's first time. */
export function chunkLayout(times: readonly Date[]): { chunkNos: number[]; offsetsMs: number[] } {
  const chunkNos: number[] = [];
  const offsetsMs: number[] = [];
  const origin = times[0]?.getTime() ?? 0;
  let chunkNo = -1;
  let slab = -1;
  let span = -1;
  let chunkFirst = origin;
  for (const [index, time] of times.entries()) {
    const t = time.getTime();
    const rowSlab = Math.floor(index / CHUNK_ROWS);
    const rowSpan = Math.floor((t - origin) / CHUNK_SPAN_MS);
    if (rowSlab !== slab || rowSpan !== span) {
      chunkNo++;
      slab = rowSlab;
      span = rowSpan;
      chunkFirst = t;
    }
    chunkNos.push(chunkNo);
    offsetsMs.push(t - chunkFirst);
  }
  return { chunkNos, offsetsMs };
}
