import type { Database } from "@svc/db";

/** Resolves once the database answered a trivial query (readiness probes). */
export async function pingDatabase(db: Database): Promise<void> {
  await db.$queryRaw`SELECT 1`;
}
