import { router } from "../../trpc.ts";
import { getTenantDeletion } from "./get-tenant-deletion.ts";
import { getTenantPipeline } from "./get-tenant-pipeline.ts";
import { getTenantSampleStats } from "./get-tenant-sample-stats.ts";
import { getTenantSyncRun } from "./get-tenant-sync-run.ts";
import { getTenantWebhook } from "./get-tenant-webhook.ts";
import { listTenantConnections } from "./list-tenant-connections.ts";
import { listTenantSamples } from "./list-tenant-samples.ts";
import { rotateTenantWebhookSecret } from "./rotate-tenant-webhook-secret.ts";

/** Read-only mirrors of a tenant's routes for an instance admin (and the webhook secret rotation). */
export const adminMirrorsRouter = router({
  getTenantWebhook,
  rotateTenantWebhookSecret,
  listTenantSamples,
  getTenantSampleStats,
  listTenantConnections,
  getTenantSyncRun,
  getTenantDeletion,
  getTenantPipeline,
});
