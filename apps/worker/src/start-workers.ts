import { registerEtlRawObject } from "./handlers/etl-raw-object.ts";
import { registerEtlSweep } from "./handlers/etl-sweep.ts";
import { registerUploadSweep } from "./handlers/upload-sweep.ts";
import { registerUserDelete } from "./handlers/user-delete.ts";
import { registerTenantDelete } from "./handlers/tenant-delete.ts";
import { registerProviderErase } from "./handlers/provider-erase.ts";
import { registerConsentRevoke } from "./handlers/consent-revoke.ts";
import { registerPartitionsMaintain } from "./handlers/partitions-maintain.ts";
import { registerWebhookCleanup } from "./handlers/webhook-cleanup.ts";
import { registerWebhookDeliver } from "./handlers/webhook-deliver.ts";
import { registerSyncPlan } from "./handlers/sync-plan.ts";
import { registerSyncPull } from "./handlers/sync-pull.ts";
import { registerSampleRollupsSweep } from "./handlers/sample-rollups-sweep.ts";
import { registerSampleMergedRollups } from "./handlers/sample-merged-rollups.ts";
import { registerDataMoves } from "./handlers/data-moves.ts";
import { registerFhirExport } from "./handlers/fhir-export.ts";
import { registerFhirExportSweep } from "./handlers/fhir-export-sweep.ts";
import type { WorkerDeps } from "./worker-deps.ts";

/** Registers every job handler of the etl role on the queue. */
export async function startWorkers(deps: WorkerDeps): Promise<void> {
  await registerPartitionsMaintain(deps);
  await registerUserDelete(deps);
  await registerTenantDelete(deps);
  await registerEtlRawObject(deps);
  await registerEtlSweep(deps);
  await registerUploadSweep(deps);
  await registerWebhookDeliver(deps);
  await registerWebhookCleanup(deps);
  await registerProviderErase(deps);
  await registerConsentRevoke(deps);
  await registerSyncPull(deps);
  await registerSyncPlan(deps);
  await registerSampleMergedRollups(deps);
  await registerSampleRollupsSweep(deps);
  await registerDataMoves(deps);
  await registerFhirExport(deps);
  await registerFhirExportSweep(deps);
}
