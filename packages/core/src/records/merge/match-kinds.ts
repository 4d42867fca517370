/**
 * When two records of one metric match in the merged view (spec, Merged view):
 * counts and anything else when their intervals overlap, readings within 5 minutes,
 * nightly or daily figures within 12 hours, body measurements within an hour, sessions
 * when they share at least half of the shorter one.
 */
export type MatchKind = "counts" | "readings" | "daily_figures" | "body_measurements" | "sessions" | "other";

/** The distance between start times within which two records match, for kinds matched so. */
export const MATCH_WINDOW_SECONDS: Partial<Record<MatchKind, number>> = {
  readings: 5 * 60,
  daily_figures: 12 * 60 * 60,
  body_measurements: 60 * 60,
};
