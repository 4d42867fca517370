import type { DbClient } from "../platform/index.ts";

export interface ConnectSessionRow {
  id: string;
  userId: string;
  redirectUri: string | null;
  expiresAt: Date;
  user: { tenantId: string; status: "active" | "deleting"; tenant: { name: string } };
}

export function insertConnectSession(db: DbClient, input: { tokenHash: string; userId: string; redirectUri: string | null; expiresAt: Date }) {
  return db.connectSession.create({ data: input, select: { id: true } });
}

/** The session of a link by the SHA-256 of its token, with its user's tenant (and its name) and status. */
export function findConnectSessionByHash(db: DbClient, tokenHash: string): Promise<ConnectSessionRow | null> {
  return db.connectSession.findUnique({
    where: { tokenHash },
    select: { id: true, userId: true, redirectUri: true, expiresAt: true, user: { select: { tenantId: true, status: true, tenant: { select: { name: true } } } } },
  });
}

/** Drops the user's sessions that expired before `before` (their links only show "expired" until then). */
export function deleteExpiredConnectSessions(db: DbClient, userId: string, before: Date) {
  return db.connectSession.deleteMany({ where: { userId, expiresAt: { lt: before } } });
}
