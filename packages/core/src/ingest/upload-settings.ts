/**
 * The timing rules of uploads still receiving bytes, as data so tests can run them in
 * seconds. Production uses DEFAULT_UPLOAD_SETTINGS. Every age is measured on the database's
 * clock, so api processes whose clocks differ agree.
 */
export interface UploadSettings {
  /** How often the process taking an upload's bytes records that it is alive (only while it makes progress). */
  heartbeatMs: number;
  /** An upload whose last heartbeat is older than this no longer counts as in flight (or as running). */
  lapseMs: number;
  /** An upload whose last heartbeat is older than this is dropped by the upload sweep: its bytes, then its row. */
  sweepAfterMs: number;
}

export const DEFAULT_UPLOAD_SETTINGS: UploadSettings = {
  heartbeatMs: 5_000,
  lapseMs: 30_000,
  sweepAfterMs: 120_000,
};
