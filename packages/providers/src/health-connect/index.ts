export {
  checkHealthConnectLine,
  parseHealthConnectLine,
  parseHealthConnectNdjson,
  DELETED_RECORD_TYPE as HEALTH_CONNECT_DELETED_RECORD_TYPE,
  HEALTH_CONNECT_BATCH_SIZE,
  type HealthConnectBatch,
} from "./ndjson.ts";
export { RECORD_TYPES as HEALTH_CONNECT_RECORD_TYPES } from "./records.ts";
