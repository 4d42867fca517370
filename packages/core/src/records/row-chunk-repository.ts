import { Prisma } from "@svc/db";
import type { DbClient } from "../platform/index.ts";
import { CHUNK_ROWS, CHUNK_SPAN_MS } from "./row-chunks.ts";

/** Tables of rows grouped in chunks (see row-chunks.ts), with the column counting each chunk's rows. */
const COUNT_COLUMNS = { rr_interval_chunks: "interval_count", workout_route_chunks: "point_count" } as const;
export type ChunkTable = keyof typeof COUNT_COLUMNS;

/**
 * `dated`: the rows of a CTE `moved` (with a column `timestamp`) of one parent, each with the
 * chunk_no and first_at of its chunk as chunkLayout (row-chunks.ts) places it: the layout of
 * the moves of rows stored one each before the upgrade to chunks.
 */
export const CHUNK_LAYOUT_CTES = Prisma.sql`placed AS (
      SELECT m.*, (row_number() OVER (ORDER BY m.timestamp) - 1) / ${CHUNK_ROWS}::int AS slab,
        floor(extract(epoch FROM m.timestamp - min(m.timestamp) OVER ()) * 1000 / ${CHUNK_SPAN_MS}::bigint) AS span
      FROM moved m
    ), numbered AS (
      SELECT p.*, dense_rank() OVER (ORDER BY p.slab, p.span) - 1 AS chunk_no FROM placed p
    ), dated AS (
      SELECT n.*, min(n.timestamp) OVER (PARTITION BY n.chunk_no) AS first_at FROM numbered n
    )`;

/** A page of `limit` rows (and one more) with a time in the window [start, end), from the cursor's time on. */
export interface ChunkPageQuery {
  /** Conditions on the chunks, aliased `c`: the user and, where given, the parent. */
  chunksOf: Prisma.Sql;
  start?: Date | undefined;
  end?: Date | undefined;
  /** The time of the previous page's last row. */
  after?: Date | undefined;
  limit: number;
}

/**
 * Conditions on the chunks (aliased `c`) that can hold rows of the page, so a read unnests
 * only those. The page starts at its lower bound (the window's start or the cursor's time,
 * the later). From the chunks' counts: taking the chunks wholly after that bound and before
 * `end` by their last time, until they hold more rows than the page, the page is surely full
 * by the last time of the last one taken, so chunks starting later are not read. Without
 * enough such rows every chunk from the lower bound to `end` is read.
 */
export async function chunksOfPage(db: DbClient, table: ChunkTable, q: ChunkPageQuery): Promise<Prisma.Sql> {
  const lower = q.start && q.after ? new Date(Math.max(q.start.getTime(), q.after.getTime())) : (q.after ?? q.start);
  const counted = [q.chunksOf];
  if (lower) counted.push(Prisma.sql`c.last_at > ${lower}`, Prisma.sql`c.first_at > ${lower}`);
  if (q.end) counted.push(Prisma.sql`c.last_at < ${q.end}`);
  const [full] = await db.$queryRaw<Array<{ last_at: Date }>>`
    SELECT last_at FROM (
      SELECT c.last_at, sum(c.${Prisma.raw(COUNT_COLUMNS[table])}) OVER (ORDER BY c.last_at ROWS UNBOUNDED PRECEDING) AS running
      FROM ${Prisma.raw(table)} c
      WHERE ${Prisma.join(counted, " AND ")}
      ORDER BY c.last_at
    ) x
    WHERE running > ${q.limit}
    ORDER BY last_at
    LIMIT 1`;
  const read = [q.chunksOf];
  if (lower) read.push(Prisma.sql`c.last_at >= ${lower}`);
  if (q.end) read.push(Prisma.sql`c.first_at < ${q.end}`);
  // A chunk spans less than CHUNK_SPAN_MS, so one starting by `full` ends before full + that span.
  if (full) read.push(Prisma.sql`c.first_at <= ${full.last_at}`, Prisma.sql`c.last_at < ${new Date(full.last_at.getTime() + CHUNK_SPAN_MS)}`);
  return Prisma.join(read, " AND ");
}
