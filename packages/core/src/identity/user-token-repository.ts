import type { DbClient } from "../platform/index.ts";

export function insertUserToken(
  db: DbClient,
  input: { userId: string; tokenHash: string; scopes: string[]; expiresAt: Date },
) {
  return db.userToken.create({ data: input, select: { id: true } });
}

/** A token that has not expired, with its user's tenant and status. */
export function findUnexpiredToken(db: DbClient, tokenHash: string, now: Date) {
  return db.userToken.findFirst({
    where: { tokenHash, expiresAt: { gt: now } },
    select: { id: true, scopes: true, expiresAt: true, user: { select: { id: true, tenantId: true, status: true } } },
  });
}

export function deleteTokensOfUser(db: DbClient, userId: string) {
  return db.userToken.deleteMany({ where: { userId } });
}
