import type { CoreDeps } from "../deps.ts";
import {
  type AuditContext,
  type AuditLogFilter,
  findUser,
  getDeletionJob,
  listAuditLog,
  listUsers,
  recordAudit,
  recordRepeatedRead,
  requireActiveUser,
  toUserDto,
  type UserFilter,
} from "../identity/index.ts";
import { getSyncRun, listConnections, listSyncRuns, requireTenant } from "../connections/index.ts";
import { getPipeline } from "./pipeline.ts";
import { getSampleStats, listSamples, listSampleTypes } from "../records/index.ts";
import {
  getWebhookDelivery,
  getWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  retryWebhookDelivery,
  rotateWebhookSecret,
} from "../webhooks/index.ts";
import { listShares, listSourceConsents } from "../sharing/index.ts";
import { AppError } from "../platform/index.ts";

/*
 * Read-only mirrors of tenant routes for an instance admin: the tenant comes from the path
 * (404 when unknown) and the tenant route's service answers. Each read is recorded in the
 * audit log once it succeeded (a refused read changes nothing).
 */

/** GET /v1/admin/tenants/{tenant_id}/webhooks/{webhook_id}. */
export async function getWebhookForAdmin(deps: CoreDeps, audit: AuditContext, tenantId: string, webhookId: string) {
  await requireTenant(deps.db, tenantId);
  const endpoint = await getWebhookEndpoint(deps.db, tenantId, webhookId);
  await recordAudit(deps.db, audit, "webhook.read", { tenantId, resource: { type: "webhook", id: webhookId } });
  return endpoint;
}

/** POST /v1/admin/tenants/{tenant_id}/webhooks/{webhook_id}/rotate-secret: recorded with the rotation, in its transaction. */
export async function rotateWebhookSecretForAdmin(deps: CoreDeps, audit: AuditContext, tenantId: string, webhookId: string) {
  await requireTenant(deps.db, tenantId);
  return rotateWebhookSecret(deps, audit, tenantId, webhookId);
}

/** GET /v1/admin/tenants/{tenant_id}/users/{id}/samples. */
export async function listSamplesForAdmin(
  deps: CoreDeps,
  audit: AuditContext,
  tenantId: string,
  userId: string,
  query: Parameters<typeof listSamples>[2],
) {
  await requireTenant(deps.db, tenantId);
  const user = await requireActiveUser(deps.db, tenantId, userId);
  const page = await listSamples(deps.db, user.id, query);
  await recordAudit(deps.db, audit, "samples.read", { tenantId, userId, resource: { type: "quantity_type", id: query.type } });
  return page;
}

/** GET /v1/admin/tenants/{tenant_id}/users/{id}/samples/stats. */
export async function getSampleStatsForAdmin(
  deps: CoreDeps,
  audit: AuditContext,
  tenantId: string,
  userId: string,
  query: Parameters<typeof getSampleStats>[2],
) {
  await requireTenant(deps.db, tenantId);
  const user = await requireActiveUser(deps.db, tenantId, userId);
  const stats = await getSampleStats(deps.db, user.id, query);
  await recordAudit(deps.db, audit, "samples.stats.read", { tenantId, userId, resource: { type: "quantity_type", id: query.type } });
  return stats;
}

/** GET /v1/admin/tenants/{tenant_id}/users/{id}/connections. */
export async function listConnectionsForAdmin(deps: CoreDeps, audit: AuditContext, tenantId: string, userId: string) {
  await requireTenant(deps.db, tenantId);
  const connections = await listConnections(deps, tenantId, userId);
  await recordAudit(deps.db, audit, "connections.read", { tenantId, userId });
  return connections;
}

/** GET /v1/admin/tenants/{tenant_id}/users/{id}/sync-runs/{run_id}. */
export async function getSyncRunForAdmin(deps: CoreDeps, audit: AuditContext, tenantId: string, userId: string, runId: number) {
  await requireTenant(deps.db, tenantId);
  const run = await getSyncRun(deps.db, tenantId, userId, runId);
  await recordAudit(deps.db, audit, "sync_run.read", { tenantId, userId, provider: run.provider, resource: { type: "sync_run", id: String(runId) } });
  return run;
}

/** GET /v1/admin/tenants/{tenant_id}/deletions/{job_id}. */
export async function getDeletionJobForAdmin(deps: CoreDeps, audit: AuditContext, tenantId: string, jobId: string) {
  await requireTenant(deps.db, tenantId);
  const job = await getDeletionJob(deps.db, tenantId, jobId);
  const target = { tenantId, userId: job.user_id, resource: { type: "deletion_job", id: jobId } };
  await recordAudit(deps.db, audit, "deletion.read", job.provider === null ? target : { ...target, provider: job.provider });
  return job;
}

/** How long repeated pipeline reads of one admin key about one tenant make one audit entry. */
export const PIPELINE_READ_AUDIT_WINDOW_MS = 10 * 60_000;

/** GET /v1/admin/tenants/{tenant_id}/pipeline: a live dashboard polls it, so repeats within 10 minutes are recorded once. */
export async function getPipelineForAdmin(deps: CoreDeps, audit: AuditContext, tenantId: string) {
  await requireTenant(deps.db, tenantId);
  const pipeline = await getPipeline(deps, tenantId);
  await recordRepeatedRead(deps.db, audit, "pipeline.read", { tenantId }, PIPELINE_READ_AUDIT_WINDOW_MS);
  return pipeline;
}

/** GET /v1/admin/tenants/{tenant_id}/audit-log: the tenant's log, newest first; the read itself is recorded after it. */
export async function listTenantAuditLogForAdmin(
  deps: CoreDeps,
  audit: AuditContext,
  tenantId: string,
  page: { limit: number; cursor?: string | undefined } & AuditLogFilter,
) {
  await requireTenant(deps.db, tenantId);
  const entries = await listAuditLog(deps.db, { kind: "tenant", tenantId }, page);
  await recordAudit(deps.db, audit, "audit_log.read", { tenantId });
  return entries;
}

type PageQuery = { limit: number; cursor?: string | undefined };

/** GET /v1/admin/tenants/{tenant_id}/users, optionally narrowed by external_ref (exact or prefix). */
export async function listUsersForAdmin(deps: CoreDeps, audit: AuditContext, tenantId: string, page: PageQuery, filter: UserFilter = {}) {
  await requireTenant(deps.db, tenantId);
  const users = await listUsers(deps.db, tenantId, page, filter);
  await recordAudit(deps.db, audit, "users.read", { tenantId });
  return users;
}

/**
 * GET /v1/admin/tenants/{tenant_id}/users/{id}: also a user being deleted (status `deleting`),
 * so support can see why its data reads answer 404.
 */
export async function getUserForAdmin(deps: CoreDeps, audit: AuditContext, tenantId: string, userId: string) {
  await requireTenant(deps.db, tenantId);
  const user = await findUser(deps.db, tenantId, userId);
  if (!user) throw new AppError("not_found", "No such user.");
  await recordAudit(deps.db, audit, "user.read", { tenantId, userId });
  return toUserDto(user);
}

/** GET /v1/admin/tenants/{tenant_id}/users/{id}/shares: never a link, key or passcode. */
export async function listSharesForAdmin(deps: CoreDeps, audit: AuditContext, tenantId: string, userId: string, page: PageQuery) {
  await requireTenant(deps.db, tenantId);
  const shares = await listShares(deps.db, tenantId, userId, page);
  await recordAudit(deps.db, audit, "shares.read", { tenantId, userId });
  return shares;
}

/** GET /v1/admin/tenants/{tenant_id}/users/{id}/consents. */
export async function listConsentsForAdmin(deps: CoreDeps, audit: AuditContext, tenantId: string, userId: string) {
  await requireTenant(deps.db, tenantId);
  const consents = await listSourceConsents(deps.db, tenantId, userId);
  await recordAudit(deps.db, audit, "consents.read", { tenantId, userId });
  return consents;
}

/** GET /v1/admin/tenants/{tenant_id}/users/{id}/sample-types: types, times and providers, never a value. */
export async function listSampleTypesForAdmin(deps: CoreDeps, audit: AuditContext, tenantId: string, userId: string) {
  await requireTenant(deps.db, tenantId);
  const user = await requireActiveUser(deps.db, tenantId, userId);
  const types = await listSampleTypes(deps.db, user.id);
  await recordAudit(deps.db, audit, "sample_types.read", { tenantId, userId });
  return types;
}

/** GET /v1/admin/tenants/{tenant_id}/users/{id}/sync-runs. */
export async function listSyncRunsForAdmin(deps: CoreDeps, audit: AuditContext, tenantId: string, userId: string, page: PageQuery) {
  await requireTenant(deps.db, tenantId);
  const runs = await listSyncRuns(deps.db, tenantId, userId, page);
  await recordAudit(deps.db, audit, "sync_runs.read", { tenantId, userId });
  return runs;
}

/** GET /v1/admin/tenants/{tenant_id}/webhooks: never a secret. */
export async function listWebhooksForAdmin(deps: CoreDeps, audit: AuditContext, tenantId: string, page: PageQuery) {
  await requireTenant(deps.db, tenantId);
  const endpoints = await listWebhookEndpoints(deps.db, tenantId, page);
  await recordAudit(deps.db, audit, "webhooks.read", { tenantId });
  return endpoints;
}

/** GET /v1/admin/tenants/{tenant_id}/webhooks/{webhook_id}/deliveries. */
export async function listWebhookDeliveriesForAdmin(
  deps: CoreDeps,
  audit: AuditContext,
  tenantId: string,
  webhookId: string,
  query: Parameters<typeof listWebhookDeliveries>[3],
) {
  await requireTenant(deps.db, tenantId);
  const deliveries = await listWebhookDeliveries(deps.db, tenantId, webhookId, query);
  await recordAudit(deps.db, audit, "webhook.deliveries.read", { tenantId, resource: { type: "webhook", id: webhookId } });
  return deliveries;
}

/** GET /v1/admin/tenants/{tenant_id}/webhooks/{webhook_id}/deliveries/{delivery_id}: with attempt_history. */
export async function getWebhookDeliveryForAdmin(deps: CoreDeps, audit: AuditContext, tenantId: string, webhookId: string, deliveryId: number) {
  await requireTenant(deps.db, tenantId);
  const delivery = await getWebhookDelivery(deps, tenantId, webhookId, deliveryId);
  await recordAudit(deps.db, audit, "webhook.delivery.read", { tenantId, resource: { type: "webhook_delivery", id: String(deliveryId) } });
  return delivery;
}

/**
 * POST /v1/admin/tenants/{tenant_id}/webhooks/{webhook_id}/deliveries/{delivery_id}/retry: the
 * tenant route's rules (409 while pending or running, or the endpoint is disabled), recorded in
 * the retry's transaction.
 */
export async function retryWebhookDeliveryForAdmin(deps: CoreDeps, audit: AuditContext, tenantId: string, webhookId: string, deliveryId: number) {
  await requireTenant(deps.db, tenantId);
  return retryWebhookDelivery(deps, tenantId, webhookId, deliveryId, audit);
}
