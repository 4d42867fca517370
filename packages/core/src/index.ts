export * from "./platform/index.ts";
export type { CoreDeps, InstanceSettings } from "./deps.ts";
export * from "./identity/index.ts";
export * from "./services/deletions.ts";
export * from "./services/tenant-deletions.ts";
export * from "./records/index.ts";
export * from "./services/processing-backlog.ts";
export * from "./services/record-bundle.ts";
export * from "./services/uploads.ts";
export * from "./services/upload-settings.ts";
export * from "./services/upload-heartbeat.ts";
export * from "./services/upload-sweep.ts";
export * from "./events/index.ts";
export * from "./services/etl.ts";
export * from "./services/shares.ts";
export {
  MAX_PASSCODE_FAILURES,
  openShareManifest,
  serveShareFile,
  SHARE_FILE_TICKET_MS,
  type ShareFileServing,
  type ShareGone,
  type ShareOpening,
} from "./services/shares/open-share.ts";
export * from "./services/self-reports.ts";
export * from "./webhooks/index.ts";
export * from "./services/webhook-dto.ts";
export * from "./services/webhook-endpoints.ts";
export * from "./services/webhook-deliveries.ts";
export * from "./services/webhook-delivery-attempt.ts";
export * from "./services/webhook-retention.ts";
export * from "./providers/provider-catalog.ts";
export * from "./services/providers.ts";
export * from "./services/provider-erasures.ts";
export * from "./services/consents.ts";
export * from "./services/consents-revocation.ts";
export * from "./providers/connector.ts";
export * from "./providers/provider-settings.ts";
export * from "./services/provider-config.ts";
export * from "./providers/provider-request.ts";
export * from "./services/provider-keys.ts";
export * from "./services/admin-providers.ts";
export * from "./services/pipeline.ts";
export * from "./services/admin-mirrors.ts";
export * from "./services/admin-tenants.ts";
export * from "./services/first-run-setup.ts";
export * from "./services/reseal-secrets.ts";
export * from "./services/etl-sweep.ts";
export { exchangeCode, refreshTokens, revokeGrant, clientIdOf, type CodeExchange } from "./oauth/token-client.ts";
export { sealTokens, openTokens } from "./oauth/sealed-tokens.ts";
export { grantClient } from "./oauth/grant-client.ts";
export { checkRedirectUri, redirectWithResult, REDIRECT_URI_MAX_LENGTH } from "./oauth/redirect-uri.ts";
export { CONSENT_STATE_TTL_MS, consentStateTenantName } from "./oauth/consent-states.ts";
export * from "./services/connection-health.ts";
export * from "./services/connections.ts";
export * from "./services/connect-sessions.ts";
export * from "./services/inbound-notifications.ts";
export * from "./services/sync-runs.ts";
export * from "./services/freshness.ts";
export * from "./services/sync-engine/sync-settings.ts";
export { abandonSyncRun, attemptSyncRun, type SyncAttemptResult } from "./services/sync-engine/sync-attempt.ts";
export { planScheduledPulls, type PlanResult } from "./services/sync-engine/plan-scheduled-pulls.ts";
export * from "./fhir/index.ts";
