/**
 * At most `size` tasks at once; the others wait their turn, first come first served. The
 * webhook-deliver jobs are fetched in batches, but one etl process holds no more requests to
 * receivers open at once than before batching (8).
 */
export function createSlots(size: number): <T>(task: () => Promise<T>) => Promise<T> {
  let free = size;
  const waiting: Array<() => void> = [];
  return async (task) => {
    if (free > 0) free--;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else free++;
    }
  };
}
