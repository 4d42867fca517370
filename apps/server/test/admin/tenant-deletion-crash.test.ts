// The tenant-delete job when an attempt breaks off (a raw store fault, a worker that died): what
// it deleted stays deleted, the tenant stays refused, and the next attempt (or two at once)
// finishes the deletion. A deletion that gave up is queued again by a repeated DELETE; a pull
// still running delays the job until it ends; the user deletions, provider erasures and consent
// revocations still queued for the tenant's users find nothing left to do.
// SVC_ROLE=api: no worker of the service runs the job; the test runs it, as a worker would.
import { existsSync } from "node:fs";
import path from "node:path";
import {
  createAdminKey,
  DEFAULT_SYNC_SETTINGS,
  failTenantDeletion,
  fileRawStore,
  runConsentRevocation,
  runProviderErasure,
  runTenantDeletion,
  runUserDeletion,
  type CoreDeps,
  type RawStore,
} from "@svc/core";
import type { JobQueue } from "@svc/jobs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, mintToken } from "../helpers/records.ts";
import { tenantRowCounts, tenantScope } from "../helpers/tenant-rows.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { heartRateLine, uploadNdjson } from "../helpers/uploads.ts";
import { startTestQueue } from "../helpers/webhooks.ts";

let svc: TestService;
let jobs: JobQueue;
let adminKey: string;

beforeAll(async () => {
  svc = await startTestService({ SVC_ROLE: "api" });
  jobs = await startTestQueue(svc);
  adminKey = (await createAdminKey(svc.db, "crash test")).admin_key;
});
afterAll(async () => {
  await jobs?.stop();
  await svc?.stop();
});

const rawRoot = () => path.join(svc.dataDir, "raw");
/** What the job uses of a worker's dependencies (the users here have no provider to revoke a grant at). */
const depsWith = (rawStore: RawStore) => ({ db: svc.db, jobs, rawStore, sync: DEFAULT_SYNC_SETTINGS }) as unknown as CoreDeps;

/** A tenant whose users each uploaded a file; the tenant's id and its users. */
async function tenantWithUploads(name: string, users: number): Promise<{ tenantId: string; userIds: string[] }> {
  const tenant = await svc.createTenant(name);
  const userIds: string[] = [];
  for (let i = 0; i < users; i++) {
    const user = await createUser(svc, tenant.api_key);
    const token = await mintToken(svc, tenant.api_key, user, ["upload"]);
    const answer = await uploadNdjson(svc, token, "bluetooth", [heartRateLine(60 + i, "2026-03-01T10:00:00Z")]);
    expect(answer.status, answer.text).toBe(202);
    expect(existsSync(path.join(rawRoot(), user))).toBe(true);
    userIds.push(user);
  }
  return { tenantId: tenant.tenant_id, userIds };
}

async function requestDeletion(tenantId: string) {
  const answer = await svc.call(`/v1/admin/tenants/${tenantId}`, { key: adminKey, method: "DELETE" });
  expect(answer.status, answer.text).toBe(202);
  return answer.body;
}

describe("tenant-delete job", () => {
  it("resumes after an attempt broke off midway, also twice at once, and ends with nothing of the tenant left", async () => {
    const { tenantId, userIds } = await tenantWithUploads("crashing", 3);
    const scope = await tenantScope(svc.db, tenantId);
    const { job_id: jobId } = await requestDeletion(tenantId);

    // The raw store fails at the second user: the attempt throws after the first user is gone.
    const files = fileRawStore(rawRoot());
    let calls = 0;
    const faulty: RawStore = {
      ...files,
      deleteUser: async (userId) => {
        if (++calls === 2) throw new Error("raw store unavailable");
        await files.deleteUser(userId);
      },
    };
    await expect(runTenantDeletion(depsWith(faulty), jobId)).rejects.toThrow("raw store unavailable");
    const midway = await svc.call(`/v1/admin/tenant-deletions/${jobId}`, { key: adminKey });
    expect(midway.body).toMatchObject({ status: "running", users_total: 3, finished_at: null });
    expect(midway.body.started_at).not.toBeNull();
    expect(await svc.db.user.count({ where: { tenantId } })).toBe(2);
    expect(userIds.filter((id) => existsSync(path.join(rawRoot(), id)))).toHaveLength(2);
    // Meanwhile the tenant stays refused and shows as deleting.
    expect((await svc.call(`/v1/admin/tenants/${tenantId}`, { key: adminKey })).body).toMatchObject({ status: "deleting", deletion_job_id: jobId });
    expect((await svc.call(`/v1/admin/tenants/${tenantId}/users`, { key: adminKey })).status).toBe(404);

    // The retry (here two at once: a retry racing an attempt thought dead) finishes it.
    await Promise.all([runTenantDeletion(depsWith(files), jobId), runTenantDeletion(depsWith(files), jobId)]);
    const done = await svc.call(`/v1/admin/tenant-deletions/${jobId}`, { key: adminKey });
    expect(done.body).toMatchObject({ status: "done", users_total: 3, users_deleted: 3 });
    expect(Object.entries(await tenantRowCounts(svc.db, scope)).filter(([, n]) => n > 0)).toEqual([]);
    expect(userIds.filter((id) => existsSync(path.join(rawRoot(), id)))).toEqual([]);
    // A late run of the same job changes nothing.
    await runTenantDeletion(depsWith(files), jobId);
    expect((await svc.call(`/v1/admin/tenant-deletions/${jobId}`, { key: adminKey })).body).toEqual(done.body);
  });

  it("a deletion that gave up is queued again by a repeated DELETE, as the same job", async () => {
    const { tenantId } = await tenantWithUploads("giving-up", 1);
    const first = await requestDeletion(tenantId);
    // The worker's last attempt failed.
    await failTenantDeletion({ db: svc.db }, first.job_id);
    const failed = await svc.call(`/v1/admin/tenant-deletions/${first.job_id}`, { key: adminKey });
    expect(failed.body).toMatchObject({ status: "failed", finished_at: expect.any(String) });
    // Still refused while failed.
    expect((await svc.call(`/v1/admin/tenants/${tenantId}/users`, { key: adminKey })).status).toBe(404);

    const again = await requestDeletion(tenantId);
    expect(again).toMatchObject({ job_id: first.job_id, status: "pending", finished_at: null });
    const queued = await svc.db.$queryRaw<Array<{ n: bigint }>>`
      SELECT count(*) AS n FROM pgboss.job WHERE name = 'tenant-delete' AND data->>'tenant_deletion_job_id' = ${first.job_id}`;
    expect(Number(queued[0]!.n)).toBe(2);
    await runTenantDeletion(depsWith(fileRawStore(rawRoot())), first.job_id);
    expect((await svc.call(`/v1/admin/tenant-deletions/${first.job_id}`, { key: adminKey })).body.status).toBe("done");
    expect(await svc.db.tenant.count({ where: { id: tenantId } })).toBe(0);
  });

  it("waits for a pull still running, then deletes", async () => {
    const { tenantId, userIds } = await tenantWithUploads("pulling", 1);
    const connection = await svc.db.connection.create({
      data: { userId: userIds[0]!, provider: "oura", keySource: "instance", applicationId: "instance", providerUserId: "pulling-oura" },
    });
    const run = await svc.db.syncRun.create({
      data: { connectionId: connection.id, userId: userIds[0]!, provider: "oura", trigger: "manual", status: "running", startedAt: new Date(), windowStart: new Date(Date.now() - 86_400_000), windowEnd: new Date() },
    });
    const { job_id: jobId } = await requestDeletion(tenantId);
    const files = depsWith(fileRawStore(rawRoot()));
    const queued = async () =>
      Number(
        (await svc.db.$queryRaw<Array<{ n: bigint }>>`
          SELECT count(*) AS n FROM pgboss.job WHERE name = 'tenant-delete' AND data->>'tenant_deletion_job_id' = ${jobId}`)[0]!.n,
      );
    expect(await queued()).toBe(1);

    // The attempt finds the pull under way: it deletes nothing and looks again a little later.
    await runTenantDeletion(files, jobId);
    expect(await svc.db.user.count({ where: { tenantId } })).toBe(1);
    expect((await svc.call(`/v1/admin/tenant-deletions/${jobId}`, { key: adminKey })).body).toMatchObject({ status: "running", users_deleted: 0 });
    expect(await queued()).toBe(2);

    // The pull ended (its next attempt would find the user deleting and end cancelled).
    await svc.db.syncRun.updateMany({ where: { id: run.id }, data: { status: "cancelled", finishedAt: new Date() } });
    await runTenantDeletion(files, jobId);
    expect((await svc.call(`/v1/admin/tenant-deletions/${jobId}`, { key: adminKey })).body.status).toBe("done");
    expect(await svc.db.tenant.count({ where: { id: tenantId } })).toBe(0);
  });

  it("leaves the user deletions, erasures and revocations still queued for its users nothing to do", async () => {
    const tenant = await svc.createTenant("queued-jobs");
    const key = tenant.api_key;
    const [leaving, erased, revoking] = [await createUser(svc, key), await createUser(svc, key), await createUser(svc, key)];
    const started = [
      await svc.call(`/v1/users/${leaving}`, { key, method: "DELETE" }),
      await svc.call(`/v1/users/${erased}/data/oura`, { key, method: "DELETE" }),
      await svc.call(`/v1/users/${revoking}/consents/oura/revoke`, { key, body: { categories: ["sleep"] } }),
    ];
    for (const answer of started) expect(answer.status, answer.text).toBeLessThan(300);
    const [userJob, erasureJob, revocationJob] = [started[0]!.body.job_id, started[1]!.body.job_id, started[2]!.body.job.job_id] as string[];

    const { job_id: jobId } = await requestDeletion(tenant.tenant_id);
    const files = depsWith(fileRawStore(rawRoot()));
    await runTenantDeletion(files, jobId);
    expect((await svc.call(`/v1/admin/tenant-deletions/${jobId}`, { key: adminKey })).body.status).toBe("done");

    // Their jobs come late: nothing of the tenant is written again (no event, no row).
    await runUserDeletion(files, userJob!);
    await runProviderErasure(files, erasureJob!);
    await runConsentRevocation(files, revocationJob!);
    expect(await svc.db.outboxEvent.count({ where: { tenantId: tenant.tenant_id } })).toBe(0);
    expect(await svc.db.deletionJob.count({ where: { tenantId: tenant.tenant_id } })).toBe(0);
    expect(await svc.db.user.count({ where: { tenantId: tenant.tenant_id } })).toBe(0);
  });
});
