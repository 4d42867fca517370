import { Prisma } from "@svc/db";
import type { DbClient } from "../../platform/index.ts";
import type { AfterTimeBigint } from "../record-cursors.ts";

export interface SleepPhaseWrite {
  stage: string;
  startDate: Date;
  endDate: Date;
}

export interface SleepPhaseRow {
  id: bigint;
  stage: string;
  start_date: Date;
  end_date: Date;
}

const phaseKey = (p: SleepPhaseWrite) => `${p.startDate.toISOString()}|${p.endDate.toISOString()}|${p.stage}`;

/**
 * Makes each session's stored phases exactly the given ones. Sessions whose phases are
 * already the same (as a multiset) are left alone; returns the ids of sessions whose
 * phases were replaced.
 */
export async function replaceSleepPhases(
  db: DbClient,
  userId: string,
  phasesBySession: ReadonlyMap<string, readonly SleepPhaseWrite[]>,
): Promise<Set<string>> {
  if (phasesBySession.size === 0) return new Set();
  const ids = [...phasesBySession.keys()];
  const stored = await db.$queryRaw<Array<{ session_id: string; stage: string; start_date: Date; end_date: Date }>>`
    SELECT session_id, stage, start_date, end_date FROM sleep_phases WHERE user_id = ${userId}::uuid AND session_id = ANY(${ids}::uuid[])`;
  const storedKeys = new Map<string, string[]>();
  for (const row of stored) {
    const keys = storedKeys.get(row.session_id) ?? [];
    keys.push(phaseKey({ stage: row.stage, startDate: row.start_date, endDate: row.end_date }));
    storedKeys.set(row.session_id, keys);
  }
  const replaced = new Set<string>();
  for (const [id, phases] of phasesBySession) {
    const next = phases.map(phaseKey).sort();
    const before = (storedKeys.get(id) ?? []).sort();
    if (next.length !== before.length || next.some((key, i) => key !== before[i])) replaced.add(id);
  }
  if (replaced.size === 0) return replaced;
  const replacedIds = [...replaced];
  await db.$executeRaw`DELETE FROM sleep_phases WHERE user_id = ${userId}::uuid AND session_id = ANY(${replacedIds}::uuid[])`;
  const rows = replacedIds.flatMap((id) => (phasesBySession.get(id) ?? []).map((p) => ({ id, ...p })));
  if (rows.length > 0) {
    await db.$executeRaw`
      INSERT INTO sleep_phases (user_id, session_id, stage, start_date, end_date)
      SELECT ${userId}::uuid, * FROM unnest(${rows.map((r) => r.id)}::uuid[], ${rows.map((r) => r.stage)}::text[],
        ${rows.map((r) => r.startDate)}::timestamptz[], ${rows.map((r) => r.endDate)}::timestamptz[])
      ORDER BY 2, 4, 5`;
  }
  return replaced;
}

export interface PhasePageQuery {
  userId: string;
  sessionId: string;
  start?: Date | undefined;
  end?: Date | undefined;
  after?: AfterTimeBigint | undefined;
  limit: number;
}

/** One page of a session's phases ordered by start_date then id; one row more than `limit`. */
export function selectSleepPhases(db: DbClient, q: PhasePageQuery): Promise<SleepPhaseRow[]> {
  const parts = [Prisma.sql`user_id = ${q.userId}::uuid`, Prisma.sql`session_id = ${q.sessionId}::uuid`];
  if (q.start) parts.push(Prisma.sql`start_date >= ${q.start}`);
  if (q.end) parts.push(Prisma.sql`start_date < ${q.end}`);
  if (q.after) parts.push(Prisma.sql`(start_date, id) > (${q.after.t}, ${q.after.id})`);
  return db.$queryRaw<SleepPhaseRow[]>`
    SELECT id, stage, start_date, end_date FROM sleep_phases
    WHERE ${Prisma.join(parts, " AND ")}
    ORDER BY start_date, id
    LIMIT ${q.limit + 1}`;
}
