import { AppError, CreatedAtCursor, type DbClient, decodeCursor, isUniqueViolation, type Page, toPage } from "../platform/index.ts";
import type { CoreDeps } from "../deps.ts";
import { insertDeletionJob } from "./deletion-job-repository.ts";
import { forgetCachedIdentities } from "./principal-cache.ts";
import { deleteIdempotencyRecordsOfUser } from "./idempotency-repository.ts";
import { findActiveUser, findActiveUserById, insertUser, listActiveUsers, markUserDeleting, type UserFilter, type UserRow } from "./user-repository.ts";

export interface UserDto {
  id: string;
  external_ref: string | null;
  status: "active" | "deleting";
  created_at: string;
}

export const toUserDto = (row: UserRow): UserDto => ({
  id: row.id,
  external_ref: row.externalRef,
  status: row.status,
  created_at: row.createdAt.toISOString(),
});

const userNotFound = () => new AppError("not_found", "No such user.");

export async function createUser(db: DbClient, tenantId: string, externalRef: string | undefined): Promise<UserDto> {
  try {
    return toUserDto(await insertUser(db, { tenantId, externalRef: externalRef ?? null }));
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("conflict", "external_ref is already used by another user of this tenant.");
    throw error;
  }
}

export async function getUser(db: DbClient, tenantId: string, userId: string): Promise<UserDto> {
  return toUserDto(await requireActiveUser(db, tenantId, userId));
}

/** The user when it is active in the tenant; 404 otherwise (other tenant, deleting, gone). */
export async function requireActiveUser(db: DbClient, tenantId: string, userId: string): Promise<UserRow> {
  const user = await findActiveUser(db, tenantId, userId);
  if (!user) throw userNotFound();
  return user;
}

/**
 * The user when it is active, looked up by id alone (instance-level tools such as the CLI,
 * which act outside any tenant); 404 otherwise (deleting, gone).
 */
export async function requireActiveUserById(db: DbClient, userId: string): Promise<UserRow> {
  const user = await findActiveUserById(db, userId);
  if (!user) throw userNotFound();
  return user;
}

/** Active users oldest first; `filter` narrows them by external_ref (the admin's search). */
export async function listUsers(
  db: DbClient,
  tenantId: string,
  page: { limit: number; cursor?: string | undefined },
  filter: UserFilter = {},
): Promise<Page<UserDto>> {
  const after = page.cursor === undefined ? undefined : decodeCursor(page.cursor, CreatedAtCursor);
  const rows = await listActiveUsers(db, tenantId, page.limit, after, filter);
  return toPage(rows, page.limit, toUserDto, (row) => ({ t: row.createdAt.toISOString(), id: row.id }));
}

/**
 * DELETE /v1/users/{id}: in one transaction the user turns `deleting` (reads 404, tokens
 * stop working), the stored idempotent answer that created it is dropped, a deletion job
 * is recorded and its background job enqueued.
 */
export async function requestUserDeletion(deps: CoreDeps, tenantId: string, userId: string): Promise<{ job_id: string }> {
  const deletion = await deps.db.$transaction(async (tx) => {
    const user = await findActiveUser(tx, tenantId, userId);
    if (!user || !(await markUserDeleting(tx, tenantId, userId))) throw userNotFound();
    await deleteIdempotencyRecordsOfUser(tx, userId);
    const job = await insertDeletionJob(tx, { tenantId, userId, externalRef: user.externalRef, provider: null });
    await deps.jobs.send("user-delete", { deletion_job_id: job.id }, tx);
    return { job_id: job.id };
  });
  forgetCachedIdentities({ userId });
  return deletion;
}
