import type { z } from "zod";
import { ZBucket, ZGetSampleStatsResponseSchema } from "./routers/samples/get-sample-stats.types.ts";
import {
  ZInstanceProvider,
  ZInstanceProviderKey,
  ZInstanceProviderUrls,
  ZProviderUrls,
  ZTenantProviderKey,
  ZTenantProviderKeys,
  ZTenantProviderKeysChange,
  ZTenantProviderSwitch,
} from "./routers/admin-providers/admin-provider.schema.ts";
import { ZListInstanceProvidersResponseSchema } from "./routers/admin-providers/list-instance-providers.types.ts";
import { ZListTenantProvidersResponseSchema } from "./routers/admin-providers/list-tenant-providers.types.ts";
import { ZTenantDeletion, ZTenantSummary } from "./routers/admin-tenants/admin-tenant.schema.ts";
import { ZListTenantsResponseSchema } from "./routers/admin-tenants/list-tenants.types.ts";
import { ZSampleType, ZListTenantSampleTypesResponseSchema } from "./routers/admin-mirrors/list-tenant-sample-types.types.ts";
import { ZAuditEntry, ZAuditLogResponseSchema } from "./routers/audit-log/audit-entry.schema.ts";
import { ZCategorySample } from "./routers/category-samples/category-sample.schema.ts";
import { ZListCategorySamplesResponseSchema } from "./routers/category-samples/list-category-samples.types.ts";
import { ZConnection, ZConnectionHealth } from "./routers/connections/connection.schema.ts";
import { ZListConnectionsResponseSchema } from "./routers/connections/list-connections.types.ts";
import { ZSourceConsent } from "./routers/consents/consent.schema.ts";
import { ZListConsentsResponseSchema } from "./routers/consents/list-consents.types.ts";
import { ZCoverageDay, ZGetCoverageResponseSchema } from "./routers/coverage/get-coverage.types.ts";
import { ZDailySummary } from "./routers/daily/daily-summary.schema.ts";
import { ZListDailySummariesResponseSchema } from "./routers/daily/list-daily-summaries.types.ts";
import { ZGetDeletionResponseSchema } from "./routers/deletions/get-deletion.types.ts";
import { ZCapabilityStatement, ZPatient, ZPatientBundle } from "./routers/fhir-base/fhir-base.schema.ts";
import { ZExportManifest, ZInformationOutcome } from "./routers/fhir-export/fhir-export.schema.ts";
import { ZGetExportStatusResponseSchema } from "./routers/fhir-export/get-export-status.types.ts";
import { ZEcgRecording, ZEcgRecordingWithVoltages } from "./routers/ecg/ecg.schema.ts";
import { ZListEcgRecordingsResponseSchema } from "./routers/ecg/list-ecg-recordings.types.ts";
import {
  ZBundleEntry,
  ZBundleLink,
  ZCodeableConcept,
  ZCoding,
  ZObservation,
  ZObservationBundle,
  ZObservationComponent,
  ZPeriod,
  ZQuantity,
  ZReference,
  ZSampledData,
} from "./routers/fhir/observation-bundle.schema.ts";
import { ZHrvResult, ZRrInterval } from "./routers/heartbeats/heartbeat.schema.ts";
import { ZListHrvResponseSchema } from "./routers/heartbeats/list-hrv.types.ts";
import { ZListRrIntervalsResponseSchema } from "./routers/heartbeats/list-rr-intervals.types.ts";
import { ZListMenstrualCyclesResponseSchema } from "./routers/menstrual-cycles/list-menstrual-cycles.types.ts";
import { ZMenstrualCycle } from "./routers/menstrual-cycles/menstrual-cycle.schema.ts";
import { ZListNutritionResponseSchema } from "./routers/nutrition/list-nutrition.types.ts";
import { ZNutritionLog } from "./routers/nutrition/nutrition.schema.ts";
import { ZPipeline } from "./routers/pipeline/pipeline.schema.ts";
import { ZListProvidersResponseSchema, ZProvider } from "./routers/providers/list-providers.types.ts";
import { ZListSamplesResponseSchema } from "./routers/samples/list-samples.types.ts";
import { ZQuantitySample } from "./routers/samples/sample.schema.ts";
import { ZListSharesResponseSchema } from "./routers/shares/list-shares.types.ts";
import { ZShare } from "./routers/shares/share.schema.ts";
import { ZListSleepPhasesResponseSchema } from "./routers/sleep/list-sleep-phases.types.ts";
import { ZListSleepSessionsResponseSchema } from "./routers/sleep/list-sleep-sessions.types.ts";
import { ZSleepPhase, ZSleepSession } from "./routers/sleep/sleep.schema.ts";
import { ZListSourceOrdersResponseSchema } from "./routers/source-orders/list-source-orders.types.ts";
import { ZSourceOrder } from "./routers/source-orders/source-order.schema.ts";
import { ZGetFreshnessResponseSchema } from "./routers/sync/get-freshness.types.ts";
import { ZListSyncRunsResponseSchema } from "./routers/sync/list-sync-runs.types.ts";
import { ZFreshness, ZSyncRun } from "./routers/sync/sync-run.schema.ts";
import { ZListTagsResponseSchema } from "./routers/tags/list-tags.types.ts";
import { ZTimeTag } from "./routers/tags/time-tag.schema.ts";
import { ZGetUploadResponseSchema, ZRejection } from "./routers/uploads/get-upload.types.ts";
import { ZListUsersResponseSchema } from "./routers/users/list-users.types.ts";
import { ZUser } from "./routers/users/user.schema.ts";
import { ZListWebhookDeliveriesResponseSchema } from "./routers/webhooks/list-webhook-deliveries.types.ts";
import { ZListWebhooksResponseSchema } from "./routers/webhooks/list-webhooks.types.ts";
import { ZRotateWebhookSecretResponseSchema } from "./routers/webhooks/rotate-webhook-secret.types.ts";
import { ZWebhookAttempt, ZWebhookDelivery, ZWebhookDeliveryDetail, ZWebhookEndpoint } from "./routers/webhooks/webhook.schema.ts";
import { ZListWorkoutRouteResponseSchema } from "./routers/workouts/list-workout-route.types.ts";
import { ZListWorkoutsResponseSchema } from "./routers/workouts/list-workouts.types.ts";
import { ZRoutePoint, ZTrackSummary, ZWorkout } from "./routers/workouts/workout.schema.ts";
import { ZScope } from "./routers/users/create-user-token.types.ts";
import { ZTimeTagKind } from "./routers/tags/time-tag.schema.ts";
import { ZWebhookDeliveryStatus } from "./routers/webhooks/webhook.schema.ts";
import { ZInstanceStatus } from "./routers/admin-providers/admin-provider.schema.ts";
import { ZDataCategory } from "./schemas/data-category.ts";
import { ZOutrankedStream, ZView } from "./schemas/records.ts";

/**
 * The named schemas of /openapi.yaml (components.schemas), by name: wherever a route's
 * request or answer uses one of these very zod schemas, the document refers to it by name, so
 * a generated client has one type of that name instead of a copy per route. Names are stable
 * (clients are generated against them): `<Model>`, `<Model>Page` for `{data, next_cursor}` pages,
 * `<Model>List` for answers that are one page. Name here every schema an answer of two routes
 * shares; a request or answer of one route only that is not named here is named after its
 * operation (openapi-names.ts). Answers only: a schema named here must not be a request's.
 */
export const OPENAPI_COMPONENTS: Record<string, z.ZodType> = {
  // Records, as every read answers them.
  QuantitySample: ZQuantitySample,
  QuantitySamplePage: ZListSamplesResponseSchema,
  SampleStats: ZGetSampleStatsResponseSchema,
  SampleStatsBucket: ZBucket,
  SampleType: ZSampleType,
  SampleTypeList: ZListTenantSampleTypesResponseSchema,
  CategorySample: ZCategorySample,
  CategorySamplePage: ZListCategorySamplesResponseSchema,
  SleepSession: ZSleepSession,
  SleepSessionPage: ZListSleepSessionsResponseSchema,
  SleepPhase: ZSleepPhase,
  SleepPhasePage: ZListSleepPhasesResponseSchema,
  Workout: ZWorkout,
  WorkoutPage: ZListWorkoutsResponseSchema,
  TrackSummary: ZTrackSummary,
  RoutePoint: ZRoutePoint,
  RoutePointPage: ZListWorkoutRouteResponseSchema,
  MenstrualCycle: ZMenstrualCycle,
  MenstrualCyclePage: ZListMenstrualCyclesResponseSchema,
  NutritionLog: ZNutritionLog,
  NutritionLogPage: ZListNutritionResponseSchema,
  DailySummary: ZDailySummary,
  DailySummaryPage: ZListDailySummariesResponseSchema,
  RrInterval: ZRrInterval,
  RrIntervalPage: ZListRrIntervalsResponseSchema,
  HrvResult: ZHrvResult,
  HrvResultPage: ZListHrvResponseSchema,
  EcgRecording: ZEcgRecording,
  EcgRecordingPage: ZListEcgRecordingsResponseSchema,
  EcgRecordingWithVoltages: ZEcgRecordingWithVoltages,
  OutrankedStream: ZOutrankedStream,
  Coverage: ZGetCoverageResponseSchema,
  CoverageDay: ZCoverageDay,
  TimeTag: ZTimeTag,
  TimeTagPage: ZListTagsResponseSchema,
  SourceOrder: ZSourceOrder,
  SourceOrderList: ZListSourceOrdersResponseSchema,

  // FHIR R4, as the Observation search answers it.
  FhirObservationBundle: ZObservationBundle,
  FhirBundleEntry: ZBundleEntry,
  FhirBundleLink: ZBundleLink,
  FhirObservation: ZObservation,
  FhirObservationComponent: ZObservationComponent,
  FhirCoding: ZCoding,
  FhirCodeableConcept: ZCodeableConcept,
  FhirQuantity: ZQuantity,
  FhirReference: ZReference,
  FhirPeriod: ZPeriod,
  FhirSampledData: ZSampledData,
  // The FHIR base (/v1/fhir).
  FhirPatient: ZPatient,
  FhirPatientBundle: ZPatientBundle,
  FhirCapabilityStatement: ZCapabilityStatement,
  FhirInformationOutcome: ZInformationOutcome,
  FhirBulkDataManifest: ZExportManifest,
  FhirBulkDataStatus: ZGetExportStatusResponseSchema,

  // Users, their sources, uploads, shares and deletions.
  User: ZUser,
  UserPage: ZListUsersResponseSchema,
  DeletionJob: ZGetDeletionResponseSchema,
  Provider: ZProvider,
  ProviderList: ZListProvidersResponseSchema,
  Connection: ZConnection,
  ConnectionHealth: ZConnectionHealth,
  ConnectionList: ZListConnectionsResponseSchema,
  SourceConsent: ZSourceConsent,
  SourceConsentList: ZListConsentsResponseSchema,
  SyncRun: ZSyncRun,
  SyncRunPage: ZListSyncRunsResponseSchema,
  Freshness: ZFreshness,
  FreshnessList: ZGetFreshnessResponseSchema,
  Upload: ZGetUploadResponseSchema,
  UploadRejection: ZRejection,
  Share: ZShare,
  SharePage: ZListSharesResponseSchema,

  // Webhook endpoints and their deliveries.
  WebhookEndpoint: ZWebhookEndpoint,
  WebhookEndpointPage: ZListWebhooksResponseSchema,
  WebhookSecret: ZRotateWebhookSecretResponseSchema,
  WebhookDelivery: ZWebhookDelivery,
  WebhookDeliveryPage: ZListWebhookDeliveriesResponseSchema,
  WebhookDeliveryDetail: ZWebhookDeliveryDetail,
  WebhookAttempt: ZWebhookAttempt,

  // The tenant's pipeline and audit log; the instance's tenants and providers.
  Pipeline: ZPipeline,
  AuditEntry: ZAuditEntry,
  AuditEntryPage: ZAuditLogResponseSchema,
  TenantSummary: ZTenantSummary,
  TenantSummaryPage: ZListTenantsResponseSchema,
  TenantDeletion: ZTenantDeletion,
  TenantProviderSwitch: ZTenantProviderSwitch,
  TenantProviderSwitchList: ZListTenantProvidersResponseSchema,
  TenantProviderKeys: ZTenantProviderKeys,
  TenantProviderKeysChange: ZTenantProviderKeysChange,
  TenantProviderKey: ZTenantProviderKey,
  ProviderUrls: ZProviderUrls,
  InstanceProvider: ZInstanceProvider,
  InstanceProviderKey: ZInstanceProviderKey,
  InstanceProviderUrls: ZInstanceProviderUrls,
  InstanceProviderList: ZListInstanceProvidersResponseSchema,

  // Values several routes take or answer.
  RecordView: ZView,
  DataCategory: ZDataCategory,
  TimeTagKind: ZTimeTagKind,
  WebhookDeliveryStatus: ZWebhookDeliveryStatus,
  TokenScope: ZScope,
  InstanceProviderStatus: ZInstanceStatus,
};
