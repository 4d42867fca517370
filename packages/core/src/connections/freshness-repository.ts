import type { DbClient } from "../platform/index.ts";

/** Where the uploads of one device provider of a user stand. */
export interface UploadSourceRow {
  provider: string;
  /** When the latest upload that was processed arrived. */
  lastProcessedAt: Date | null;
  /** Uploads arriving (a heartbeat within the lapse) or waiting for their ETL. */
  inFlight: number;
  /** Status of the latest upload. */
  latestStatus: "receiving" | "pending" | "processed" | "failed";
  /** The error of the latest failed upload, and when it failed. */
  lastError: string | null;
  lastErrorAt: Date | null;
}

/** The user's uploads per provider (of `providers`), one row per provider that has any. */
export function listUploadSources(db: DbClient, userId: string, providers: readonly string[], lapseMs: number): Promise<UploadSourceRow[]> {
  if (providers.length === 0) return Promise.resolve([]);
  return db.$queryRaw<UploadSourceRow[]>`
    SELECT provider,
      max(received_at) FILTER (WHERE status = 'processed') AS "lastProcessedAt",
      (count(*) FILTER (WHERE status = 'pending' OR (status = 'receiving' AND heartbeat_at > now() - ${lapseMs} * interval '1 millisecond')))::int AS "inFlight",
      (array_agg(status::text ORDER BY received_at DESC))[1] AS "latestStatus",
      (array_agg(error ORDER BY received_at DESC) FILTER (WHERE status = 'failed'))[1] AS "lastError",
      max(processed_at) FILTER (WHERE status = 'failed') AS "lastErrorAt"
    FROM raw_objects
    WHERE user_id = ${userId}::uuid AND provider = ANY(${[...providers]}::text[])
    GROUP BY provider
    ORDER BY provider`;
}
