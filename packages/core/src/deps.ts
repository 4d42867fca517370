import type { Database } from "@svc/db";
import type { JobQueue } from "@svc/jobs";
import type { RawStore } from "./raw-store/raw-store.ts";

/** What the core services need from the process: the database, the job queue and the raw store. */
export interface CoreDeps {
  db: Database;
  jobs: JobQueue;
  rawStore: RawStore;
}
