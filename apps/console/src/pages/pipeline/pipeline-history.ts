import { useEffect, useState } from "react";

/** One point of the queue-depth plot. */
export interface QueuePoint {
  /** generated_at of the pipeline answer, in ms. */
  at: number;
  sync_queued: number;
  sync_running: number;
  processing_pending: number;
  delivery_pending: number;
}

/** Points kept while the page is open (2 hours at one answer per 5 s). */
const MAX_POINTS = 1440;

/**
 * The queue depths of every pipeline answer seen while the page is open, oldest first; kept in
 * memory only, so leaving the page starts over. A repeated answer (same generated_at) is skipped.
 */
export function useQueueHistory(point: QueuePoint | null): QueuePoint[] {
  const [points, setPoints] = useState<QueuePoint[]>([]);
  useEffect(() => {
    if (!point) return;
    setPoints((previous) => {
      if (previous.length > 0 && previous[previous.length - 1]!.at === point.at) return previous;
      return [...previous, point].slice(-MAX_POINTS);
    });
  }, [point]);
  return points;
}
