import { randomBytes } from "node:crypto";
import { AppError, CreatedAtCursor, type DbClient, decodeCursor, type Page, toPage } from "../platform/index.ts";
import type { CoreDeps } from "../deps.ts";
import { isEventType } from "../events/index.ts";
import { parkPendingDeliveriesOfEndpoint } from "./delivery-repository.ts";
import {
  countWebhookEndpoints,
  deleteWebhookEndpoint as deleteWebhookEndpointRow,
  findWebhookEndpoint,
  insertWebhookEndpoint,
  lockWebhookEndpoint,
  lockWebhookEndpointsOfTenant,
  selectWebhookEndpoints,
  setWebhookEndpointSecret,
  updateWebhookEndpoint as updateWebhookEndpointRow,
  type WebhookEndpointChange,
  type WebhookEndpointRow,
} from "./endpoint-repository.ts";
import { checkWebhookUrl } from "./address-guard.ts";
import { type AuditContext, recordAudit } from "../identity/index.ts";
import { toWebhookEndpointDto, type CreatedWebhookEndpointDto, type WebhookEndpointDto } from "./webhook-dto.ts";

/** Endpoints a tenant may have (spec, Limits). */
export const WEBHOOK_ENDPOINTS_MAX = 20;
/** Characters of an endpoint's description. */
export const WEBHOOK_DESCRIPTION_MAX = 500;
/** disabled_reason of an endpoint the tenant disabled with PATCH enabled false. */
export const DISABLED_BY_TENANT = "disabled by the tenant";

/** A signing secret: `whsec_` + base64 of 32 random bytes (Standard Webhooks). */
export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

export interface WebhookEndpointInput {
  url: string;
  event_types?: string[] | undefined;
  description?: string | undefined;
}

export interface WebhookEndpointPatch {
  url?: string | undefined;
  event_types?: string[] | undefined;
  description?: string | undefined;
  enabled?: boolean | undefined;
}

const endpointNotFound = () => new AppError("not_found", "No such webhook endpoint.");

function checkUrl(url: string, allowPrivate: boolean): string {
  const check = checkWebhookUrl(url, { allowPrivate });
  if (!check.ok) throw new AppError("bad_request", `url: ${check.reason}`);
  return url;
}

/** Known event types, each once, in the order sent; empty means every type, also later ones. */
function checkEventTypes(types: string[]): string[] {
  for (const type of types) {
    if (!isEventType(type)) throw new AppError("bad_request", `event_types: unknown event type "${type}"`);
  }
  return [...new Set(types)];
}

/** The tenant's endpoint, or 404 (unknown id or another tenant's). */
export async function requireWebhookEndpoint(db: DbClient, tenantId: string, endpointId: string): Promise<WebhookEndpointRow> {
  const row = await findWebhookEndpoint(db, tenantId, endpointId);
  if (!row) throw endpointNotFound();
  return row;
}

/**
 * POST /v1/webhooks: a new active endpoint with a fresh secret, stored sealed and answered
 * this once. A tenant has at most 20 endpoints: the 21st is a 409.
 */
export async function createWebhookEndpoint(
  { db, sealer, webhooks }: Pick<CoreDeps, "db" | "sealer" | "webhooks">,
  audit: AuditContext,
  tenantId: string,
  input: WebhookEndpointInput,
): Promise<CreatedWebhookEndpointDto> {
  const url = checkUrl(input.url, webhooks.allowPrivate);
  const eventTypes = checkEventTypes(input.event_types ?? []);
  const secret = generateWebhookSecret();
  const row = await db.$transaction(async (tx) => {
    await lockWebhookEndpointsOfTenant(tx, tenantId);
    if ((await countWebhookEndpoints(tx, tenantId)) >= WEBHOOK_ENDPOINTS_MAX) {
      throw new AppError("conflict", `A tenant has at most ${WEBHOOK_ENDPOINTS_MAX} webhook endpoints: delete one first.`);
    }
    const inserted = await insertWebhookEndpoint(tx, tenantId, {
      url,
      description: input.description ?? "",
      eventTypes,
      secretSealed: sealer.seal(secret),
    });
    await recordAudit(tx, audit, "webhook.create", { tenantId, resource: { type: "webhook", id: inserted.id } });
    return inserted;
  });
  return { ...toWebhookEndpointDto(row), secret };
}

/** GET /v1/webhooks: the tenant's endpoints, oldest first. */
export async function listWebhookEndpoints(
  db: DbClient,
  tenantId: string,
  page: { limit: number; cursor?: string | undefined },
): Promise<Page<WebhookEndpointDto>> {
  const after = page.cursor === undefined ? undefined : decodeCursor(page.cursor, CreatedAtCursor);
  const rows = await selectWebhookEndpoints(db, tenantId, page.limit, after && { t: new Date(after.t), id: after.id });
  return toPage(rows, page.limit, toWebhookEndpointDto, (row) => ({ t: row.createdAt.toISOString(), id: row.id }));
}

/** GET /v1/webhooks/{webhook_id}. */
export async function getWebhookEndpoint(db: DbClient, tenantId: string, endpointId: string): Promise<WebhookEndpointDto> {
  return toWebhookEndpointDto(await requireWebhookEndpoint(db, tenantId, endpointId));
}

/**
 * PATCH /v1/webhooks/{webhook_id}: changes the fields sent. enabled false disables the
 * endpoint (disabled_reason "disabled by the tenant") and parks its pending deliveries in the
 * same transaction; enabled true makes a disabled endpoint active again with
 * disabled_reason and failing_since cleared (a fresh start of the 5-day rule).
 */
export async function updateWebhookEndpoint(
  { db, webhooks }: Pick<CoreDeps, "db" | "webhooks">,
  audit: AuditContext,
  tenantId: string,
  endpointId: string,
  patch: WebhookEndpointPatch,
): Promise<WebhookEndpointDto> {
  const change: WebhookEndpointChange = {};
  if (patch.url !== undefined) change.url = checkUrl(patch.url, webhooks.allowPrivate);
  if (patch.event_types !== undefined) change.eventTypes = checkEventTypes(patch.event_types);
  if (patch.description !== undefined) change.description = patch.description;
  return db.$transaction(async (tx) => {
    const status = await lockWebhookEndpoint(tx, tenantId, endpointId, "update");
    if (status === null) throw endpointNotFound();
    await recordAudit(tx, audit, "webhook.update", { tenantId, resource: { type: "webhook", id: endpointId } });
    if (patch.enabled === false && status === "active") {
      Object.assign(change, { status: "disabled", disabledReason: DISABLED_BY_TENANT });
      await parkPendingDeliveriesOfEndpoint(tx, endpointId);
    }
    if (patch.enabled === true && status === "disabled") {
      Object.assign(change, { status: "active", disabledReason: null, failingSince: null });
    }
    if (Object.keys(change).length === 0) return toWebhookEndpointDto(await requireWebhookEndpoint(tx, tenantId, endpointId));
    return toWebhookEndpointDto(await updateWebhookEndpointRow(tx, endpointId, change));
  });
}

/** DELETE /v1/webhooks/{webhook_id}: the endpoint with every delivery and attempt of it. */
export async function deleteWebhookEndpoint(db: CoreDeps["db"], audit: AuditContext, tenantId: string, endpointId: string): Promise<void> {
  await db.$transaction(async (tx) => {
    if (!(await deleteWebhookEndpointRow(tx, tenantId, endpointId))) throw endpointNotFound();
    await recordAudit(tx, audit, "webhook.delete", { tenantId, resource: { type: "webhook", id: endpointId } });
  });
}

/**
 * POST /v1/webhooks/{webhook_id}/rotate-secret: a new secret replaces the old one at once.
 * Deliveries are signed per attempt, so the next attempt of any delivery, old ones included,
 * is signed with it.
 */
export async function rotateWebhookSecret(
  { db, sealer }: Pick<CoreDeps, "db" | "sealer">,
  audit: AuditContext,
  tenantId: string,
  endpointId: string,
): Promise<{ secret: string }> {
  const secret = generateWebhookSecret();
  await db.$transaction(async (tx) => {
    if (!(await setWebhookEndpointSecret(tx, tenantId, endpointId, sealer.seal(secret)))) throw endpointNotFound();
    await recordAudit(tx, audit, "webhook.rotate_secret", { tenantId, resource: { type: "webhook", id: endpointId } });
  });
  return { secret };
}
