import type { Database } from "@svc/db";
import type { JobQueue } from "@svc/jobs";

/** What the core services need from the process: the database and the job queue. */
export interface CoreDeps {
  db: Database;
  jobs: JobQueue;
}
