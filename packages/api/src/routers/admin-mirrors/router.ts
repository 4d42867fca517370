import { router } from "../../trpc.ts";
import { getTenantDeletion } from "./get-tenant-deletion.ts";
import { getTenantPipeline } from "./get-tenant-pipeline.ts";
import { getTenantSampleStats } from "./get-tenant-sample-stats.ts";
import { getTenantSyncRun } from "./get-tenant-sync-run.ts";
import { getTenantWebhook } from "./get-tenant-webhook.ts";
import { listTenantConnections } from "./list-tenant-connections.ts";
import { listTenantSamples } from "./list-tenant-samples.ts";
import { rotateTenantWebhookSecret } from "./rotate-tenant-webhook-secret.ts";
import { listTenantUsers } from "./list-tenant-users.ts";
import { listTenantSampleTypes } from "./list-tenant-sample-types.ts";
import { listTenantSyncRuns } from "./list-tenant-sync-runs.ts";
import { listTenantWebhooks } from "./list-tenant-webhooks.ts";
import { listTenantWebhookDeliveries } from "./list-tenant-webhook-deliveries.ts";
import { getTenantWebhookDelivery } from "./get-tenant-webhook-delivery.ts";
import { retryTenantWebhookDelivery } from "./retry-tenant-webhook-delivery.ts";
import { getTenantUser } from "./get-tenant-user.ts";
import { listTenantShares } from "./list-tenant-shares.ts";
import { listTenantConsents } from "./list-tenant-consents.ts";

/** Read-only mirrors of a tenant's routes for an instance admin (and the webhook secret rotation and delivery retry). */
export const adminMirrorsRouter = router({
  getTenantWebhook,
  rotateTenantWebhookSecret,
  listTenantSamples,
  getTenantSampleStats,
  listTenantConnections,
  getTenantSyncRun,
  getTenantDeletion,
  getTenantPipeline,
  listTenantUsers,
  listTenantSampleTypes,
  listTenantSyncRuns,
  listTenantWebhooks,
  listTenantWebhookDeliveries,
  getTenantWebhookDelivery,
  retryTenantWebhookDelivery,
  getTenantUser,
  listTenantShares,
  listTenantConsents,
});
