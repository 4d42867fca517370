export {
  checkXiaomiUpload,
  parseXiaomiCsv,
  parseXiaomiCsvBatches,
  XIAOMI_BATCH_SIZE,
  XIAOMI_FILE_KINDS,
  XIAOMI_SOURCES,
  type XiaomiUploadProblem,
} from "./upload.ts";
