import type { DbClient } from "../platform/index.ts";

/** One user's saved consent to one category of one source (no row: granted). */
export interface SourceConsentRow {
  provider: string;
  category: string;
  granted: boolean;
  updatedAt: Date;
}

const consentFields = { provider: true, category: true, granted: true, updatedAt: true } as const;

/** The user's saved consents, of one provider when given. */
export function listSourceConsentRows(db: DbClient, userId: string, provider?: string): Promise<SourceConsentRow[]> {
  return db.sourceConsent.findMany({
    where: { userId, ...(provider !== undefined && { provider }) },
    select: consentFields,
    orderBy: [{ provider: "asc" }, { category: "asc" }],
  });
}

/** The categories of the provider the user revoked. */
export async function listRevokedCategories(db: DbClient, userId: string, provider: string): Promise<string[]> {
  const rows = await db.sourceConsent.findMany({ where: { userId, provider, granted: false }, select: { category: true } });
  return rows.map((row) => row.category);
}

/** Saves the user's consent to these categories of the provider (granted or revoked). */
export async function saveSourceConsents(
  db: DbClient,
  input: { userId: string; provider: string; categories: readonly string[]; granted: boolean },
): Promise<void> {
  for (const category of input.categories) {
    await db.sourceConsent.upsert({
      where: { userId_provider_category: { userId: input.userId, provider: input.provider, category } },
      create: { userId: input.userId, provider: input.provider, category, granted: input.granted },
      update: { granted: input.granted },
      select: { category: true },
    });
  }
}

/**
 * The providers the user has a connection (any status), a raw object (an upload or a pull)
 * or quantity samples of (self reports included). Raw objects are walked provider by
 * provider over their (user_id, provider, received_at) index, never row by row.
 */
export async function listUserSourceProviders(db: DbClient, userId: string): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ provider: string }>>`
    WITH RECURSIVE raw AS (
      (SELECT provider FROM raw_objects WHERE user_id = ${userId}::uuid ORDER BY provider LIMIT 1)
      UNION ALL
      SELECT (SELECT r.provider FROM raw_objects r WHERE r.user_id = ${userId}::uuid AND r.provider > raw.provider ORDER BY r.provider LIMIT 1)
      FROM raw WHERE raw.provider IS NOT NULL
    )
    SELECT provider FROM raw WHERE provider IS NOT NULL
    UNION SELECT provider FROM connections WHERE user_id = ${userId}::uuid
    UNION SELECT provider FROM quantity_sample_streams WHERE user_id = ${userId}::uuid
    ORDER BY provider`;
  return rows.map((row) => row.provider);
}

const writersLockKey = (userId: string, provider: string) => `source_consent:${userId}:${provider}`;

/**
 * Taken by every write of records of the user and provider before it reads their consent,
 * held until its transaction ends: a revocation's deletion waits for the writes that may
 * have read the consent before the revocation committed (waitForRecordWriters).
 */
export async function holdRecordWriterLock(db: DbClient, userId: string, provider: string): Promise<void> {
  await db.$executeRaw`SELECT pg_advisory_xact_lock_shared(hashtextextended(${writersLockKey(userId, provider)}, 0))`;
}

/**
 * Returns once every transaction writing records of the user and provider that started
 * before the call has ended (a single statement: the lock is released as it returns).
 */
export async function waitForRecordWriters(db: DbClient, userId: string, provider: string): Promise<void> {
  await db.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${writersLockKey(userId, provider)}, 0))`;
}
