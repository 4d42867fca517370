import { z } from "zod";

/**
 * Every background job: its name, the payload it carries (validated again by the worker)
 * and its pg-boss options. The API only enqueues through this catalog.
 */
export const JOB_CATALOG = {
  "user-delete": {
    payload: z.object({ deletion_job_id: z.uuid() }),
    options: { retryLimit: 5, retryDelay: 5, retryBackoff: true },
  },
  "etl-raw-object": {
    payload: z.object({ raw_object_id: z.uuid() }),
    options: { retryLimit: 5, retryDelay: 10, retryBackoff: true },
  },
} as const;

export type JobName = keyof typeof JOB_CATALOG;
export type JobPayload<N extends JobName> = z.infer<(typeof JOB_CATALOG)[N]["payload"]>;
