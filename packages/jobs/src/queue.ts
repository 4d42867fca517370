import { fromPrisma, PgBoss, type PrismaTransactionLike } from "pg-boss";
import { JOB_CATALOG, type JobName, type JobPayload } from "./catalog.ts";

export interface JobContext {
  /** pg-boss job id. */
  id: string;
  /** 0 on the first attempt. */
  retryCount: number;
  /** true when this attempt is the last one pg-boss will make. */
  lastAttempt: boolean;
}

/** The typed face of pg-boss: send jobs of the catalog, work them with validated payloads. */
export class JobQueue {
  private readonly boss: PgBoss;

  private constructor(boss: PgBoss) {
    this.boss = boss;
  }

  /** Starts pg-boss on the database (creating its own `pgboss` schema) and every catalog queue. */
  static async start(connectionString: string, onError: (error: Error) => void): Promise<JobQueue> {
    const boss = new PgBoss({ connectionString, max: 4 });
    boss.on("error", onError);
    await boss.start();
    for (const name of Object.keys(JOB_CATALOG)) await boss.createQueue(name);
    return new JobQueue(boss);
  }

  /**
   * Enqueues a job. Pass the Prisma transaction the change is written in, so the job
   * exists exactly when the change commits.
   */
  async send<N extends JobName>(name: N, payload: JobPayload<N>, tx?: PrismaTransactionLike): Promise<void> {
    const { options } = JOB_CATALOG[name];
    const data = JOB_CATALOG[name].payload.parse(payload);
    await this.boss.send(name, data, { ...options, ...(tx && { db: fromPrisma(tx) }) });
  }

  /** Runs `handler` for each job of `name`, one at a time per worker, waking every second. */
  async work<N extends JobName>(
    name: N,
    handler: (payload: JobPayload<N>, job: JobContext) => Promise<void>,
  ): Promise<void> {
    const { payload: schema, options } = JOB_CATALOG[name];
    await this.boss.work<JobPayload<N>>(name, { pollingIntervalSeconds: 1, batchSize: 1 }, async ([job]) => {
      if (!job) return;
      await handler(schema.parse(job.data) as JobPayload<N>, {
        id: job.id,
        retryCount: job.retryCount,
        lastAttempt: job.retryCount >= options.retryLimit,
      });
    });
  }

  async stop(): Promise<void> {
    await this.boss.stop({ graceful: true, timeout: 10_000 });
  }
}
