import type { Database } from "@svc/db";
import { LEGACY_MOVES, type LegacyMove } from "./legacy-moves.ts";

export interface DataMovesRun {
  /** Rows moved, per legacy table. */
  moved: Record<string, number>;
  /** Whether every legacy table is empty. */
  done: boolean;
}

/**
 * Moves batches of legacy rows, one kind after the other, until none is left, or until `until`
 * has passed or `maxBatches` batches moved rows (checked before each batch).
 */
export async function moveLegacyData(
  db: Database,
  options: { until?: Date; maxBatches?: number; moves?: readonly LegacyMove[] } = {},
): Promise<DataMovesRun> {
  const moves = options.moves ?? LEGACY_MOVES;
  const moved: Record<string, number> = Object.fromEntries(moves.map((move) => [move.table, 0]));
  let batches = 0;
  const mayGoOn = () => (options.until === undefined || Date.now() < options.until.getTime()) && (options.maxBatches === undefined || batches < options.maxBatches);
  for (const move of moves) {
    for (;;) {
      if (!mayGoOn()) return { moved, done: false };
      const rows = await move.moveBatch(db);
      if (rows === 0) break;
      batches++;
      moved[move.table] = (moved[move.table] ?? 0) + rows;
    }
  }
  return { moved, done: true };
}
