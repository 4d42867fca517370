import { getTenantDeletion, getTenantSummary, requestTenantDeletion, type TenantDeletionDto } from "@svc/core";
import { JobQueue } from "@svc/jobs";
import { withDatabase } from "./database.ts";
import type { CliEnv } from "./env.ts";

const say = (line: string) => console.error(`svc: ${line}`);

/** How often --wait reads the deletion, and after how long without a start it says why it may wait. */
const POLL_MS = 1_000;
const IDLE_NOTE_MS = 10_000;

/**
 * `svc admin tenant delete`: starts the tenant's deletion as the admin route does (nothing is
 * deleted unless `confirm` is the tenant's name) and prints its job; the running instance's
 * worker deletes it. Asked again while it runs, the same job. With `wait`, follows the job
 * until it ends and fails when it failed.
 */
export async function deleteTenantCommand(env: CliEnv, tenantId: string, options: { confirm: string; wait: boolean }): Promise<void> {
  const started = await withDatabase(env, async (db, url) => {
    const tenant = await getTenantSummary(db, tenantId);
    if (tenant.name !== options.confirm) {
      throw new Error(`--confirm must be the tenant's name: ${tenantId} is named ${JSON.stringify(tenant.name)}. Nothing was deleted.`);
    }
    const jobs = await JobQueue.start(url, (error) => say(`job queue: ${error.message}`));
    try {
      return await requestTenantDeletion({ db, jobs }, null, tenantId);
    } finally {
      await jobs.stop();
    }
  });
  console.log(`job_id: ${started.job_id}`);
  console.log(`status: ${started.status}`);
  say(`the running instance's worker deletes ${JSON.stringify(started.tenant_name)} and its ${started.users_total} users; its keys are refused from now on.`);
  if (!options.wait) {
    say("follow it with --wait, at GET /v1/admin/tenant-deletions/<job_id>, or in the console.");
    return;
  }
  const ended = await followDeletion(env, started);
  console.log(`status: ${ended.status}`);
  if (ended.status === "failed") throw new Error(`the deletion failed (the worker's log says why); run this command again to retry it.`);
}

async function followDeletion(env: CliEnv, started: TenantDeletionDto): Promise<TenantDeletionDto> {
  return withDatabase(env, async (db) => {
    const since = Date.now();
    let shown = "";
    let noted = false;
    for (;;) {
      const job = await getTenantDeletion({ db }, started.job_id);
      const progress = `${job.status}: ${job.users_deleted} of ${job.users_total} users deleted`;
      if (progress !== shown) say((shown = progress));
      if (job.status === "done" || job.status === "failed") return job;
      if (!noted && job.status === "pending" && Date.now() - since > IDLE_NOTE_MS) {
        say("still pending: is the service (its worker) running on this database?");
        noted = true;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  });
}
