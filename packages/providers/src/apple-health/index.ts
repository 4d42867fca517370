// Apple Health uploads: NDJSON lines from a device SDK, and the Health app's export.xml.
export { checkAppleHealthLine, parseAppleHealthNdjson, APPLE_HEALTH_LINE_KINDS, type AppleHealthLineKind } from "./ndjson.ts";
export { parseAppleHealthExport, type AppleHealthExportOptions } from "./export-xml.ts";
export { SLEEP_SESSION_GAP_MS, type AppleHealthParsedRecords, type AppleHealthParseOptions } from "./records.ts";
export {
  FRACTION_TYPES,
  HEALTHKIT_CATEGORY_TYPES,
  HEALTHKIT_QUANTITY_TYPES,
  categoryMappingOf,
  quantityTypeOf,
  workoutActivityTypeOf,
} from "./healthkit-types.ts";
