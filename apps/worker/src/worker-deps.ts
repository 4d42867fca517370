import type { Database } from "@svc/db";
import type { RawStore } from "@svc/core";
import type { JobQueue } from "@svc/jobs";
import type { Logger } from "pino";

export interface WorkerDeps {
  db: Database;
  jobs: JobQueue;
  rawStore: RawStore;
  logger: Logger;
}
