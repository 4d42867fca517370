import { pingDatabase } from "@svc/core";
import type { Database } from "@svc/db";

/** How long the database may take to answer a probe's `SELECT 1`. */
const DATABASE_TIMEOUT_MS = 2_000;

export type CheckResult = "pass" | "fail";

export interface ReadinessReport {
  ready: boolean;
  checks: { database: CheckResult; shutdown: CheckResult };
}

/**
 * Whether this process should get traffic: the database answers, and the process is not
 * shutting down (which fails readiness at once, before connections close). The database is
 * asked over a connection of its own: a pool busy with requests must not read as an outage.
 */
export class Readiness {
  private readonly db: Database;
  private shuttingDown = false;

  /** `db`: a client of one connection, for the probe only. */
  constructor(db: Database) {
    this.db = db;
  }

  beginShutdown(): void {
    this.shuttingDown = true;
  }

  async check(): Promise<ReadinessReport> {
    const checks = {
      database: (await answersWithin(pingDatabase(this.db), DATABASE_TIMEOUT_MS)) ? "pass" : "fail",
      shutdown: this.shuttingDown ? "fail" : "pass",
    } as const;
    return { ready: Object.values(checks).every((result) => result === "pass"), checks };
  }
}

async function answersWithin(answer: Promise<void>, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), timeoutMs);
  });
  try {
    return await Promise.race([answer.then(() => true, () => false), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
