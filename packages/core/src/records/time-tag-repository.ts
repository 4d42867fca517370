import type { AfterTimeUuid } from "./record-cursors.ts";
import type { DbClient } from "../platform/index.ts";

const tagFields = {
  id: true,
  userId: true,
  kind: true,
  label: true,
  note: true,
  startAt: true,
  endAt: true,
  timezone: true,
  createdAt: true,
  updatedAt: true,
} as const;

export interface TimeTagRow {
  id: string;
  userId: string;
  kind: string;
  label: string;
  note: string | null;
  startAt: Date;
  endAt: Date | null;
  timezone: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface TimeTagWrite {
  kind: string;
  label: string;
  note: string | null;
  startAt: Date;
  endAt: Date | null;
  timezone: string | null;
}

export function insertTimeTag(db: DbClient, userId: string, tag: TimeTagWrite): Promise<TimeTagRow> {
  return db.timeTag.create({ data: { userId, ...tag }, select: tagFields });
}

export function findTimeTag(db: DbClient, userId: string, tagId: string): Promise<TimeTagRow | null> {
  return db.timeTag.findFirst({ where: { id: tagId, userId }, select: tagFields });
}

/** Holds the tag's row until the transaction ends, so two updates of one tag run one after the other. */
export async function lockTimeTag(db: DbClient, userId: string, tagId: string): Promise<void> {
  await db.$queryRaw`SELECT id FROM time_tags WHERE id = ${tagId}::uuid AND user_id = ${userId}::uuid FOR UPDATE`;
}

export function updateTimeTag(db: DbClient, userId: string, tagId: string, tag: TimeTagWrite): Promise<TimeTagRow> {
  return db.timeTag.update({ where: { userId_id: { userId, id: tagId } }, data: tag, select: tagFields });
}

export async function deleteTimeTag(db: DbClient, userId: string, tagId: string): Promise<boolean> {
  const { count } = await db.timeTag.deleteMany({ where: { id: tagId, userId } });
  return count === 1;
}

export interface TimeTagPageQuery {
  userId: string;
  kind?: string | undefined;
  /** Tags still going at or starting after this time (inclusive). */
  start?: Date | undefined;
  /** Tags starting before this time (exclusive). */
  end?: Date | undefined;
  after?: AfterTimeUuid | undefined;
  limit: number;
}

/**
 * One page of the user's tags overlapping [start, end), ordered by (start_at, id); one row
 * more than `limit`. A tag overlaps when it starts before end and either has not ended
 * (ongoing), ends after start, or starts at or after start (a tag of no length at start).
 */
export function selectTimeTags(db: DbClient, q: TimeTagPageQuery): Promise<TimeTagRow[]> {
  return db.timeTag.findMany({
    where: {
      userId: q.userId,
      ...(q.kind !== undefined && { kind: q.kind }),
      AND: [
        ...(q.end ? [{ startAt: { lt: q.end } }] : []),
        ...(q.start ? [{ OR: [{ endAt: null }, { endAt: { gt: q.start } }, { startAt: { gte: q.start } }] }] : []),
        ...(q.after ? [{ OR: [{ startAt: { gt: q.after.t } }, { startAt: q.after.t, id: { gt: q.after.id } }] }] : []),
      ],
    },
    orderBy: [{ startAt: "asc" }, { id: "asc" }],
    take: q.limit + 1,
    select: tagFields,
  });
}
