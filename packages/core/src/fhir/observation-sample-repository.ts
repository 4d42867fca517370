import { Prisma } from "@svc/db";
import type { DbClient } from "../platform/index.ts";
import type { CutRow } from "../records/index.ts";

/** Every stream of the user's samples, of every type: ranks the merged view and spans the types. */
export function listUserSampleStreams(db: DbClient, userId: string) {
  return db.quantitySampleStream.findMany({
    where: { userId },
    select: { type: true, sourceKey: true, provider: true, onBody: true, maxDurationSeconds: true, firstStart: true, lastStart: true },
  });
}

/**
 * Runs the statements of several sample pages (samplePageSql, mergedSamplePageSql) as one
 * statement: one round trip for every type a search reads. The rows of each, in its order.
 */
export async function readSamplePageParts(db: DbClient, parts: readonly Prisma.Sql[]): Promise<CutRow[][]> {
  if (parts.length === 0) return [];
  const union = Prisma.join(
    parts.map((part, index) => Prisma.sql`(SELECT ${index}::int AS part, p.* FROM (${part}) p)`),
    " UNION ALL ",
  );
  // Times are whole milliseconds: (start_ms, id) is each page's own order.
  const rows = await db.$queryRaw<Array<CutRow & { part: number }>>`${union} ORDER BY part, start_ms, id`;
  const byPart = parts.map((): CutRow[] => []);
  for (const { part, ...row } of rows) byPart[part]!.push(row);
  return byPart;
}
