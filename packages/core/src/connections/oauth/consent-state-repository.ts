import type { DbClient } from "../../platform/index.ts";

const consentFields = {
  id: true,
  userId: true,
  provider: true,
  sealedVerifier: true,
  redirectUri: true,
  sealedConnectToken: true,
  keySource: true,
  applicationId: true,
  expiresAt: true,
  usedAt: true,
} as const;

export interface ConsentStateRow {
  id: string;
  userId: string;
  provider: string;
  sealedVerifier: string;
  redirectUri: string | null;
  sealedConnectToken: string | null;
  keySource: string;
  applicationId: string;
  expiresAt: Date;
  usedAt: Date | null;
}

export interface ConsentStateWrite {
  stateHash: string;
  userId: string;
  provider: string;
  sealedVerifier: string;
  redirectUri: string | null;
  sealedConnectToken: string | null;
  keySource: string;
  applicationId: string;
  expiresAt: Date;
}

export function insertConsentState(db: DbClient, input: ConsentStateWrite) {
  return db.consentState.create({ data: input, select: { id: true } });
}

/**
 * Marks the state used when it is unused and unexpired, in one statement (two callbacks with
 * the same state: one wins). Null when the state is unknown, used or expired.
 */
export async function consumeConsentStateRow(db: DbClient, stateHash: string): Promise<ConsentStateRow | null> {
  const rows = await db.$queryRaw<ConsentStateRow[]>`
    UPDATE consent_states SET used_at = now()
    WHERE state_hash = ${stateHash} AND used_at IS NULL AND expires_at > now()
    RETURNING id, user_id AS "userId", provider, sealed_verifier AS "sealedVerifier", redirect_uri AS "redirectUri",
      sealed_connect_token AS "sealedConnectToken", key_source AS "keySource", application_id AS "applicationId", expires_at AS "expiresAt", used_at AS "usedAt"`;
  return rows[0] ?? null;
}

export function findConsentStateByHash(db: DbClient, stateHash: string): Promise<ConsentStateRow | null> {
  return db.consentState.findUnique({ where: { stateHash }, select: consentFields });
}

/** Drops the user's states of the provider that expired before `before` (they can never be used). */
export function deleteExpiredConsentStates(db: DbClient, userId: string, provider: string, before: Date) {
  return db.consentState.deleteMany({ where: { userId, provider, expiresAt: { lt: before } } });
}

/** The name of the tenant whose user a consent state is for, while the state is unused and unexpired. */
export async function findOpenConsentStateTenantName(db: DbClient, stateHash: string, provider: string, now: Date): Promise<string | null> {
  const row = await db.consentState.findFirst({
    where: { stateHash, provider, usedAt: null, expiresAt: { gt: now } },
    select: { user: { select: { tenant: { select: { name: true } } } } },
  });
  return row?.user.tenant.name ?? null;
}
