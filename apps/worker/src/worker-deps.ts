import type { Database } from "@svc/db";
import type { JobQueue } from "@svc/jobs";
import type { Logger } from "pino";

export interface WorkerDeps {
  db: Database;
  jobs: JobQueue;
  logger: Logger;
}
