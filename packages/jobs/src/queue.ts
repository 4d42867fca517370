import { fromPrisma, type Job, PgBoss, type PrismaTransactionLike, type WorkOptions } from "pg-boss";
import { JOB_CATALOG, type JobName, type JobPayload } from "./catalog.ts";
import { recordJob } from "./job-metrics.ts";
import { inJobSpan, splitTraceContext, withTraceContext } from "./job-trace.ts";

export interface JobContext {
  /** pg-boss job id. */
  id: string;
  /** 0 on the first attempt. */
  retryCount: number;
  /** true when this attempt is the last one pg-boss will make. */
  lastAttempt: boolean;
}

/** How many jobs of one queue wait or run (JobQueue.depths). */
export interface QueueDepth {
  queue: string;
  ready: number;
  deferred: number;
  active: number;
}

/** The typed face of pg-boss: send jobs of the catalog, work them with validated payloads. */
export class JobQueue {
  private readonly boss: PgBoss;
  /** Handlers of this process running now. */
  private active = 0;

  private constructor(boss: PgBoss) {
    this.boss = boss;
  }

  /** Starts pg-boss on the database (creating its own `pgboss` schema) and every catalog queue. */
  static async start(
    connectionString: string,
    onError: (error: Error) => void,
    options: {
      /** pg-boss warnings, e.g. LISTEN/NOTIFY unavailable (workers then only poll). */
      onWarning?: (warning: { message: string; data?: unknown }) => void;
      /**
       * How often this instance looks for jobs whose worker died (no heartbeat) and retries
       * them; pg-boss's default is 60 s. Tests lower it to see a crash recovered quickly.
       */
      superviseIntervalSeconds?: number;
    } = {},
  ): Promise<JobQueue> {
    const supervise = options.superviseIntervalSeconds;
    const boss = new PgBoss({
      connectionString,
      max: 4,
      // LISTEN/NOTIFY wakes workers of notify queues (webhook deliveries) the moment a job commits.
      useListenNotify: true,
      ...(supervise !== undefined && { superviseIntervalSeconds: supervise, monitorIntervalSeconds: supervise }),
    });
    boss.on("error", onError);
    if (options.onWarning) boss.on("warning", options.onWarning);
    await boss.start();
    for (const [name, entry] of Object.entries(JOB_CATALOG)) {
      await boss.createQueue(name, "queue" in entry ? entry.queue : {});
    }
    return new JobQueue(boss);
  }

  /**
   * Enqueues a job. Pass the Prisma transaction the change is written in, so the job
   * exists exactly when the change commits.
   */
  async send<N extends JobName>(
    name: N,
    payload: JobPayload<N>,
    tx?: PrismaTransactionLike,
    timing: {
      startAfter?: Date;
      /** Higher runs first among jobs due (pg-boss priority; 0 by default). */
      priority?: number;
      /** A pg-boss group: the queue's work options may cap how many jobs of one group run at once. */
      group?: { id: string; tier?: string };
      /** On a queue whose policy allows one job per key and state, a job of a key already queued is not queued again. */
      singletonKey?: string;
    } = {},
  ): Promise<void> {
    const { options } = JOB_CATALOG[name];
    const data = withTraceContext(JOB_CATALOG[name].payload.parse(payload));
    await this.boss.send(name, data, { ...options, ...timing, ...(tx && { db: fromPrisma(tx) }) });
  }

  /** Runs a job of the catalog on a cron schedule (one run per tick across every process). */
  async schedule<N extends JobName>(name: N, cron: string, payload: JobPayload<N>): Promise<void> {
    await this.boss.schedule(name, cron, JOB_CATALOG[name].payload.parse(payload), JOB_CATALOG[name].options);
  }

  /**
   * Runs `handler` for each job of `name`: each worker fetches a batch (one job unless the
   * catalog sets batchSize) and runs its jobs at once, several workers where the catalog says
   * so, polling every second unless NOTIFY wakes them sooner. A job whose handler threw is
   * failed and retried on its own, whatever the others of its batch did. A worker that
   * just finished a batch fetches again at once: pg-boss would otherwise wait out the polling
   * interval after every batch, however long the backlog.
   */
  async work<N extends JobName>(
    name: N,
    handler: (payload: JobPayload<N>, job: JobContext) => Promise<void>,
  ): Promise<void> {
    const entry = JOB_CATALOG[name];
    const { payload: schema, options } = entry;
    const work: WorkOptions = "work" in entry ? entry.work : {};
    const { localConcurrency = 1, ...fetching } = { pollingIntervalSeconds: 1, batchSize: 1, ...work };
    /** Runs one job of a batch; what it threw, or null. */
    const run = async (job: Job<object>): Promise<unknown> => {
      const { payload, carrier } = splitTraceContext(job.data);
      const startedAt = performance.now();
      this.active++;
      try {
        await inJobSpan(name, job, carrier, () =>
          handler(schema.parse(payload) as JobPayload<N>, {
            id: job.id,
            retryCount: job.retryCount,
            lastAttempt: job.retryCount >= options.retryLimit,
          }),
        );
        recordJob(name, "completed", startedAt);
        return null;
      } catch (error) {
        recordJob(name, "failed", startedAt);
        return error ?? new Error("the job handler threw nothing");
      } finally {
        this.active--;
      }
    };
    // One pg-boss worker per slot, so that each knows its own id to wake.
    for (let slot = 0; slot < localConcurrency; slot++) {
      let workerId = "";
      workerId = await this.boss.work<object>(name, fetching, async (jobs) => {
        const thrown = await Promise.all(jobs.map(run));
        // A job that threw is failed (and retried) on its own; pg-boss completes the others of
        // the batch in one statement when this returns, fenced to the attempts it fetched.
        for (const [index, error] of thrown.entries()) {
          if (error !== null) await this.boss.fail(name, jobs[index]!, error as object);
        }
        this.boss.notifyWorker(workerId);
      });
    }
  }

  /**
   * Jobs of each catalog queue, from the counts pg-boss keeps on its queue table (one query;
   * its monitor refreshes them every minute): ready to run now, deferred to a later time
   * (retries, scheduled attempts) and running.
   */
  async depths(): Promise<QueueDepth[]> {
    const queues = await this.boss.getQueues(Object.keys(JOB_CATALOG));
    return queues.map((queue) => ({ queue: queue.name, ready: queue.readyCount, deferred: queue.deferredCount, active: queue.activeCount }));
  }

  /**
   * Shutdown, first step: workers stop fetching, running jobs get up to `timeoutMs` to
   * finish; those still running then fail and are retried by another process. Sending
   * still works (requests being answered may queue jobs) until stop(). Resolves with the
   * number of jobs cut off at the deadline.
   */
  async drain(timeoutMs: number): Promise<{ cut: number }> {
    await this.boss.stop({ graceful: true, timeout: timeoutMs, close: false });
    return { cut: this.active };
  }

  /** Stops like drain(10 s) unless drained already, then closes the connection pool. */
  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, timeout: 10_000 });
  }
}
