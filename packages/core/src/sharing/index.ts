export { dropRevokedRecords } from "./consent-enforcement.ts";
export * from "./consents.ts";
export {
  MAX_PASSCODE_FAILURES,
  openShareManifest,
  serveShareFile,
  SHARE_FILE_TICKET_MS,
  type ShareFileServing,
  type ShareGone,
  type ShareOpening,
} from "./open-share.ts";
export * from "./shares.ts";
export { listRevokedCategories, waitForRecordWriters } from "./source-consent-repository.ts";
export { listRecordZones } from "./record-zone-repository.ts";
