export { moveLegacyData, type DataMovesRun } from "./data-moves.ts";
export { LEGACY_MOVES, type LegacyMove } from "./legacy-moves.ts";
