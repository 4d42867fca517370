import type { Database } from "@svc/db";
import { categorySampleMove } from "./category-samples/category-sample-move.ts";
import { ROW_CHUNK_MOVES } from "./row-chunk-move.ts";
import { quantitySampleMove } from "./samples/legacy-sample-move.ts";

/**
 * Rows an upgrade left in a legacy table (the storage of before, renamed `<table>_legacy` by
 * the migration that made the new one), moved into the new tables by the job data-moves while
 * svc serves (docs/decisions.md, "Online data moves"). Until a row is moved, reads take it from
 * the legacy table and a writer of its user moves that user's rows first.
 */
export interface LegacyMove {
  /** The legacy table, for logs. */
  table: string;
  /**
   * Moves one batch in one transaction (a crash loses nothing: the rows leave the legacy table
   * in the transaction that stores them anew) and returns how many rows it moved: 0 once none is left.
   */
  moveBatch(db: Database): Promise<number>;
}

/** Every kind of record an upgrade may have left behind. */
export const LEGACY_MOVES: readonly LegacyMove[] = [
  quantitySampleMove,
  ...ROW_CHUNK_MOVES,
  categorySampleMove,
];
