import { z } from "zod";

/**
 * Every background job: its name, the payload it carries (validated again by the worker),
 * its pg-boss queue options and how workers fetch it. The API only enqueues through this catalog.
 */
export const JOB_CATALOG = {
  "user-delete": {
    payload: z.object({ deletion_job_id: z.uuid() }),
    options: { retryLimit: 5, retryDelay: 5, retryBackoff: true },
  },
  // Deletes a whole tenant (DELETE /v1/admin/tenants/{tenant_id}); a run works about 30 s and
  // queues the next one, so no attempt comes near the expiry.
  "tenant-delete": {
    payload: z.object({ tenant_deletion_job_id: z.uuid() }),
    options: { retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 15 * 60 },
  },
  // Erases one user's data of one provider (DELETE /v1/users/{id}/data/{provider}).
  "provider-erase": {
    payload: z.object({ deletion_job_id: z.uuid() }),
    options: { retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 * 60 },
  },
  // Deletes one user's records of revoked categories of one provider (POST /v1/users/{id}/consents/{provider}/revoke).
  // It first waits for writes of that provider's records that began before the revocation (up to an ETL's 30 minutes).
  "consent-revoke": {
    payload: z.object({ deletion_job_id: z.uuid() }),
    options: { retryLimit: 5, retryDelay: 5, retryBackoff: true, expireInSeconds: 60 * 60 },
  },
  "etl-raw-object": {
    payload: z.object({ raw_object_id: z.uuid() }),
    // pg-boss gives up on an attempt after expireInSeconds (15 minutes by default) and
    // retries it while the first still runs: the ETL of a large upload would run twice at
    // once. An attempt may take as long as the ETL's transaction (30 minutes, core's etl.ts).
    // An attempt whose worker died (no heartbeat for 10 s) is retried after the usual backoff,
    // not after 35 minutes; one that only looked dead waits on the raw object's row lock, then
    // finds it processed.
    options: { retryLimit: 5, retryDelay: 10, retryBackoff: true, heartbeatSeconds: 10, expireInSeconds: 35 * 60 },
    // Up to 4 ETLs at once per process, of different users: the jobs of one user share a
    // pg-boss group (core's etl-jobs.ts) that runs one at a time, so other users' uploads do
    // not wait behind one user's large upload or backlog. Two fetches at the same moment can
    // pass the group's limit; core's ETL then still takes one user's uploads one at a time, in order.
    work: { localConcurrency: 4, groupConcurrency: 1 },
  },
  // One attempt of one webhook delivery. The retry schedule of deliveries is our own
  // (a new job per attempt); pg-boss retries only an attempt whose worker died (no
  // heartbeat for 10 s) or threw. NOTIFY wakes a worker the moment the job commits.
  "webhook-deliver": {
    payload: z.object({ delivery_id: z.string().regex(/^[0-9]{1,19}$/) }),
    options: { retryLimit: 10, retryDelay: 1, retryBackoff: true, retryDelayMax: 60, heartbeatSeconds: 10, expireInSeconds: 120 },
    queue: { notify: true },
    // NOTIFY only wakes workers for jobs due at once; a retry queued with startAfter is found
    // by polling, which pg-boss slows to every 30 s while NOTIFY is on: poll every second.
    // Batches of 4: a quarter of pg-boss's fetch and completion statements per delivery, and
    // jobs fetched together share their claim statement (core's delivery-attempt.ts). The
    // handler still runs 8 deliveries at once per process, so a job waits behind at most 24
    // others of this process: 4 rounds of the 15 s timeout, well inside expireInSeconds.
    work: { localConcurrency: 8, batchSize: 4, notifyPollingIntervalSeconds: 1 },
  },
  // Every 10 minutes: raw objects still pending with no ETL job left to run them (a job cut at
  // shutdown on its last attempt, a give-up that could not reach the database) get a new job.
  "etl-sweep": {
    payload: z.object({}),
    options: { retryLimit: 1, retryDelay: 60 },
  },
  // Every minute: uploads still receiving whose heartbeat lapsed (their api process died, their
  // bytes stopped arriving) are dropped, bytes and row (core's upload-sweep.ts).
  "upload-sweep": {
    payload: z.object({}),
    options: { retryLimit: 1, retryDelay: 10, expireInSeconds: 5 * 60 },
  },
  // Daily, and at worker start: the monthly partitions of the time-partitioned tables are
  // made three months ahead (core's platform/db/partitions.ts).
  "partitions-maintain": {
    payload: z.object({}),
    options: { retryLimit: 3, retryDelay: 60, expireInSeconds: 15 * 60 },
  },
  // Every minute: queues sample-merged-rollups for each user and type whose merged rollups are
  // stale (core's records/samples/merged-rollups.ts), so stats read them within the spec's 5 minutes.
  "sample-rollups-sweep": {
    payload: z.object({}),
    options: { retryLimit: 1, retryDelay: 10, expireInSeconds: 5 * 60 },
  },
  // Computes the merged rollups of one user's type over its stale range. One queued and one
  // running per user and type (policy stately, singletonKey user:type): changes marked while
  // one runs are taken by the next.
  "sample-merged-rollups": {
    payload: z.object({ user_id: z.uuid(), type: z.string().min(1) }),
    options: { retryLimit: 3, retryDelay: 30, retryBackoff: true, expireInSeconds: 30 * 60 },
    queue: { policy: "stately" },
    work: { localConcurrency: 2 },
  },
  // Every minute: moves rows an upgrade left in legacy tables into the new ones, a batch per
  // transaction, for at most 45 s a run (core's records/data-moves.ts). One at a time (policy singleton).
  "data-moves": {
    payload: z.object({}),
    options: { retryLimit: 1, retryDelay: 10, expireInSeconds: 5 * 60 },
    queue: { policy: "singleton" },
  },
  // Deletes deliveries finished more than 30 days ago; scheduled hourly.
  "webhook-cleanup": {
    payload: z.object({}),
    options: { retryLimit: 2, retryDelay: 60 },
  },
  // One attempt of one sync run. The retry schedule of runs is our own (a new job per
  // attempt, with startAfter); pg-boss retries only an attempt whose worker died (no
  // heartbeat for 30 s) or threw. Runs of one provider application share a pg-boss group:
  // at most 6 of its runs pull at once, backfill chunks (tier `backfill`) at most 2 of them,
  // so one tenant's backfill never takes every slot. Manual, notification and scheduled runs
  // are sent with a higher priority than backfill chunks.
  "sync-pull": {
    payload: z.object({ sync_run_id: z.string().regex(/^[0-9]{1,19}$/) }),
    options: { retryLimit: 3, retryDelay: 5, retryBackoff: true, heartbeatSeconds: 30, expireInSeconds: 20 * 60 },
    queue: { notify: true },
    work: { localConcurrency: 8, notifyPollingIntervalSeconds: 1, groupConcurrency: { default: 6, tiers: { backfill: 2 } } },
  },
  // Queues the scheduled pulls that are due; scheduled every minute.
  "sync-plan": {
    payload: z.object({}),
    options: { retryLimit: 1, retryDelay: 10, expireInSeconds: 5 * 60 },
  },
  // Writes the NDJSON files of one FHIR Bulk Data export (core's fhir/export/run-fhir-export.ts).
  // A run works about 10 minutes and queues the next one, so no attempt comes near the expiry;
  // one whose worker died (no heartbeat for 10 s) is retried and continues from the last
  // durable file. At most 2 at once per process: each streams one user's pages.
  "fhir-export": {
    payload: z.object({ fhir_export_id: z.uuid() }),
    options: { retryLimit: 5, retryDelay: 10, retryBackoff: true, heartbeatSeconds: 10, expireInSeconds: 30 * 60 },
    work: { localConcurrency: 2 },
  },
  // Deletes the files and rows of FHIR exports past their expiry, and of cancelled ones; scheduled every 15 minutes.
  "fhir-export-sweep": {
    payload: z.object({}),
    options: { retryLimit: 2, retryDelay: 60, expireInSeconds: 15 * 60 },
    queue: { policy: "singleton" },
  },
} as const;

export type JobName = keyof typeof JOB_CATALOG;
export type JobPayload<N extends JobName> = z.infer<(typeof JOB_CATALOG)[N]["payload"]>;
