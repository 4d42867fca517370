import { procedureItem } from "../router-procedures.ts";
import type { RecordShape } from "./record-shape.ts";

/*
 * The shape of every record kind the tools answer (record-shape.ts). Stream fields are what
 * the storage keeps once per stream or series; dropped fields are ids no tool takes and the
 * providers' own ids. REST answers every field.
 */

const PROVENANCE = ["provider", "source", "device"] as const;
const EMPTY_METADATA = { metadata: {} };

export const QUANTITY_SAMPLE: RecordShape = {
  schema: procedureItem("samples.listSamples"),
  stream: ["type", "unit", ...PROVENANCE, "source_name", "source_bundle_id", "device_model", "product_type", "is_primary_source", "was_user_entered"],
  streamMetadata: ["timezone", "original_unit"],
  droppedMetadata: ["original_value"],
  dropped: ["id", "external_id"],
  usual: EMPTY_METADATA,
  instant: { start: "start_date", end: "end_date" },
};

export const CATEGORY_SAMPLE: RecordShape = {
  schema: procedureItem("categorySamples.listCategorySamples"),
  stream: ["type", ...PROVENANCE, "source_name", "source_bundle_id", "device_model", "was_user_entered"],
  streamMetadata: ["timezone"],
  dropped: ["id", "external_id"],
  usual: EMPTY_METADATA,
  instant: { start: "start_date", end: "end_date" },
};

export const SLEEP_SESSION: RecordShape = {
  schema: procedureItem("sleep.listSleepSessions"),
  stream: [...PROVENANCE, "source_name"],
  dropped: ["external_id"],
  usual: EMPTY_METADATA,
};

export const SLEEP_PHASE: RecordShape = {
  schema: procedureItem("sleep.listSleepPhases"),
  dropped: ["id"],
};

export const WORKOUT: RecordShape = {
  schema: procedureItem("workouts.listWorkouts"),
  stream: [...PROVENANCE, "source_name"],
  dropped: ["external_id"],
  usual: EMPTY_METADATA,
};

export const ROUTE_POINT: RecordShape = {
  schema: procedureItem("workouts.listWorkoutRoute"),
};

export const NUTRITION_LOG: RecordShape = {
  schema: procedureItem("nutrition.listNutrition"),
  stream: [...PROVENANCE, "source_name"],
  streamMetadata: ["timezone"],
  dropped: ["id", "external_id"],
  usual: { ...EMPTY_METADATA, nutrients: {} },
  instant: { start: "start_date", end: "end_date" },
};

export const DAILY_SUMMARY: RecordShape = {
  schema: procedureItem("daily.listDailySummaries"),
  stream: [...PROVENANCE],
  dropped: ["id"],
  usual: { ...EMPTY_METADATA, derived: false },
};

export const RR_INTERVAL: RecordShape = {
  schema: procedureItem("heartbeats.listRrIntervals"),
  stream: ["series_id", ...PROVENANCE],
  usual: { preceded_by_gap: false },
};

export const HRV_RESULT: RecordShape = {
  schema: procedureItem("heartbeats.listHrv"),
  stream: [...PROVENANCE],
};

export const MENSTRUAL_CYCLE: RecordShape = {
  schema: procedureItem("menstrualCycles.listMenstrualCycles"),
};

export const ECG_RECORDING: RecordShape = {
  schema: procedureItem("ecg.listEcgRecordings"),
  stream: [...PROVENANCE, "source_name"],
  streamMetadata: ["timezone"],
  dropped: ["external_id"],
  usual: { ...EMPTY_METADATA, symptoms: [] },
};

export const STATS_BUCKET: RecordShape = {
  schema: procedureItem("samples.getSampleStats", "buckets"),
  stream: [...PROVENANCE, "unit"],
};

export const TIME_TAG: RecordShape = { schema: procedureItem("tags.listTags") };

export const CONNECTION: RecordShape = { schema: procedureItem("connections.listConnections") };

export const USER: RecordShape = { schema: procedureItem("users.listUsers") };

export const WEBHOOK_ENDPOINT: RecordShape = { schema: procedureItem("webhooks.listWebhooks") };
