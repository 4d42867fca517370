import { CreatedAtCursor, type DbClient, decodeCursor, type Page, toPage } from "../platform/index.ts";
import { hasAuditEntrySince, insertAuditEntry, listAuditEntries, type AuditEntryRow, type AuditLog } from "./audit-repository.ts";
import type { Principal } from "./auth.ts";

/**
 * What the audit log records: instance admin actions and admin reads of a tenant's
 * configuration or data (mirror routes); a tenant key's changes of its webhook endpoints
 * (where its events go and how they are signed).
 */
export type AuditAction =
  | "tenant.provider"
  | "tenant.provider_keys"
  | "tenant.provider_keys.delete"
  | "config.read"
  | "instance.provider"
  | "instance.provider_keys"
  | "instance.provider.delete"
  | "webhook.create"
  | "webhook.update"
  | "webhook.delete"
  | "webhook.read"
  | "webhook.rotate_secret"
  | "samples.read"
  | "samples.stats.read"
  | "connections.read"
  | "sync_run.read"
  | "deletion.read"
  | "pipeline.read"
  | "audit_log.read"
  | "tenant.create"
  | "tenant.delete"
  | "users.read"
  | "sample_types.read"
  | "sync_runs.read"
  | "webhooks.read"
  | "webhook.deliveries.read"
  | "webhook.delivery.read"
  | "webhook.delivery.retry"
  | "user.read"
  | "shares.read"
  | "consents.read";

/** Who acted, and in which request: every audited service takes it. */
export interface AuditContext {
  actor: { kind: "admin" | "tenant"; id: string };
  requestId: string | null;
}

/** What the action was about. tenant null: the instance itself (its own providers). */
export interface AuditTarget {
  tenantId: string | null;
  userId?: string;
  provider?: string;
  resource?: { type: string; id: string };
}

/** One entry as the audit log routes answer it: never a secret or health value. */
export interface AuditEntryDto {
  id: string;
  at: string;
  actor: { kind: "admin" | "tenant"; id: string };
  action: string;
  target: { tenant_id: string | null; user_id: string | null; provider: string | null; resource_type: string | null; resource_id: string | null };
  request_id: string | null;
}

export function auditContextOf(principal: Extract<Principal, { kind: "admin" | "tenant" }>, requestId: string | null): AuditContext {
  const actor = principal.kind === "admin" ? { kind: "admin" as const, id: principal.adminKeyId } : { kind: "tenant" as const, id: principal.keyId };
  return { actor, requestId };
}

/**
 * Records one entry; pass the transaction of the change it records. An admin's entry about
 * a tenant shows in the instance's log and in the tenant's.
 */
export function recordAudit(db: DbClient, context: AuditContext, action: AuditAction, target: AuditTarget): Promise<void> {
  return insertAuditEntry(db, {
    actorKind: context.actor.kind,
    actorId: context.actor.id,
    action,
    tenantId: target.tenantId,
    userId: target.userId ?? null,
    provider: target.provider ?? null,
    resourceType: target.resource?.type ?? null,
    resourceId: target.resource?.id ?? null,
    requestId: context.requestId,
  });
}

/**
 * Records a read that a dashboard repeats (the console polls the pipeline every few seconds)
 * once per actor, action and tenant in `windowMs`, so polling does not bury the log.
 */
export async function recordRepeatedRead(
  db: DbClient,
  context: AuditContext,
  action: AuditAction,
  target: AuditTarget & { tenantId: string },
  windowMs: number,
): Promise<void> {
  const since = new Date(Date.now() - windowMs);
  if (await hasAuditEntrySince(db, { actorId: context.actor.id, action, tenantId: target.tenantId }, since)) return;
  await recordAudit(db, context, action, target);
}

function toAuditEntryDto(row: AuditEntryRow): AuditEntryDto {
  return {
    id: row.id,
    at: row.createdAt.toISOString(),
    actor: { kind: row.actorKind === "admin" ? "admin" : "tenant", id: row.actorId },
    action: row.action,
    target: { tenant_id: row.tenantId, user_id: row.userId, provider: row.provider, resource_type: row.resourceType, resource_id: row.resourceId },
    request_id: row.requestId,
  };
}

/** Every read action ends in this, every change does not: "writes only" leaves these out. */
export const READ_ACTION_SUFFIX = ".read";

/** The filters of the audit log routes (all optional; given together, an entry matches each). */
export interface AuditLogFilter {
  actor_id?: string | undefined;
  actor_kind?: "admin" | "tenant" | undefined;
  action?: string | undefined;
  writes_only?: "true" | "false" | undefined;
  user_id?: string | undefined;
}

/** One page of a log, newest first, narrowed by `filter`. */
export async function listAuditLog(
  db: DbClient,
  log: AuditLog,
  page: { limit: number; cursor?: string | undefined } & AuditLogFilter,
): Promise<Page<AuditEntryDto>> {
  const before = page.cursor === undefined ? undefined : decodeCursor(page.cursor, CreatedAtCursor);
  const rows = await listAuditEntries(db, log, page.limit, before, {
    actorId: page.actor_id,
    actorKind: page.actor_kind,
    action: page.action,
    userId: page.user_id,
    readActionSuffix: page.writes_only === "true" ? READ_ACTION_SUFFIX : undefined,
  });
  return toPage(rows, page.limit, toAuditEntryDto, (row) => ({ t: row.createdAt.toISOString(), id: row.id }));
}
