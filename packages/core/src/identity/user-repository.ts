import type { CreatedAtCursor, DbClient } from "../platform/index.ts";

const userFields = { id: true, tenantId: true, externalRef: true, status: true, createdAt: true } as const;

export type UserRow = { id: string; tenantId: string; externalRef: string | null; status: "active" | "deleting"; createdAt: Date };

export function insertUser(db: DbClient, input: { tenantId: string; externalRef: string | null }): Promise<UserRow> {
  return db.user.create({ data: input, select: userFields });
}

export function findActiveUser(db: DbClient, tenantId: string, id: string): Promise<UserRow | null> {
  return db.user.findFirst({ where: { id, tenantId, status: "active" }, select: userFields });
}

/** An active user by id alone, whatever its tenant: for instance-level tools (the CLI). */
export function findActiveUserById(db: DbClient, id: string): Promise<UserRow | null> {
  return db.user.findFirst({ where: { id, status: "active" }, select: userFields });
}

/** A user of a tenant whatever its status (active or being deleted). */
export function findUser(db: DbClient, tenantId: string, id: string): Promise<UserRow | null> {
  return db.user.findFirst({ where: { id, tenantId }, select: userFields });
}

/** Narrows a list of users: external_ref equal to `externalRef`, or starting with `externalRefPrefix` (both when both are given). */
export interface UserFilter {
  externalRef?: string | undefined;
  externalRefPrefix?: string | undefined;
}

/** Prisma's startsWith is a LIKE pattern: its wildcards (and the escape character) are taken literally only escaped. */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, "\\$&");
}

/** Active users of a tenant matching the filter, oldest first, after the cursor; one row more than `limit`. */
export function listActiveUsers(
  db: DbClient,
  tenantId: string,
  limit: number,
  after: CreatedAtCursor | undefined,
  filter: UserFilter = {},
): Promise<UserRow[]> {
  const afterDate = after && new Date(after.t);
  const externalRef = {
    ...(filter.externalRef !== undefined && { equals: filter.externalRef }),
    ...(filter.externalRefPrefix !== undefined && { startsWith: escapeLike(filter.externalRefPrefix) }),
  };
  return db.user.findMany({
    where: {
      tenantId,
      status: "active",
      ...(Object.keys(externalRef).length > 0 && { externalRef }),
      ...(afterDate && {
        OR: [{ createdAt: { gt: afterDate } }, { createdAt: afterDate, id: { gt: after.id } }],
      }),
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    take: limit + 1,
    select: userFields,
  });
}

/**
 * Turns an active user into `deleting` and frees its external_ref for a new user.
 * Returns false when the user was not active (already deleting, or gone).
 */
export async function markUserDeleting(db: DbClient, tenantId: string, id: string): Promise<boolean> {
  const { count } = await db.user.updateMany({
    where: { id, tenantId, status: "active" },
    data: { status: "deleting", externalRef: null },
  });
  return count === 1;
}

export function deleteUserRow(db: DbClient, id: string) {
  return db.user.deleteMany({ where: { id } });
}

/** A user by id whatever its status (workers act on users of any tenant). */
export function findUserById(db: DbClient, id: string): Promise<UserRow | null> {
  return db.user.findUnique({ where: { id }, select: userFields });
}

/** Locks the user's row until the transaction ends, so a deletion cannot start meanwhile; its status. */
export async function lockUserForUpload(db: DbClient, userId: string): Promise<"active" | "deleting" | null> {
  const rows = await db.$queryRaw<Array<{ status: "active" | "deleting" }>>`
    SELECT status FROM users WHERE id = ${userId}::uuid FOR SHARE`;
  return rows[0]?.status ?? null;
}

/**
 * Locks the active user of the tenant until the transaction ends (a self report or an
 * upload holding the row FOR SHARE finishes first, a second request waits); null otherwise.
 */
export async function lockActiveUserForErasure(db: DbClient, tenantId: string, userId: string) {
  const rows = await db.$queryRaw<Array<{ id: string; external_ref: string | null }>>`
    SELECT id, external_ref FROM users
    WHERE id = ${userId}::uuid AND tenant_id = ${tenantId}::uuid AND status = 'active'
    FOR NO KEY UPDATE`;
  return rows[0] ?? null;
}
