import type { DbClient } from "../platform/index.ts";

/** Every column that holds a value sealed with the instance's encryption key (crypto/sealer.ts). */
export const SEALED_COLUMNS = [
  { kind: "webhook_secrets", table: "webhook_endpoints", column: "secret_sealed" },
  { kind: "tenant_provider_keys", table: "tenant_provider_keys", column: "sealed_keys" },
  { kind: "instance_provider_keys", table: "instance_providers", column: "sealed_keys" },
  { kind: "connection_tokens", table: "connections", column: "sealed_tokens" },
  { kind: "consent_verifiers", table: "consent_states", column: "sealed_verifier" },
  { kind: "consent_connect_links", table: "consent_states", column: "sealed_connect_token" },
] as const;

export type SealedColumn = (typeof SEALED_COLUMNS)[number];

/** Sealed values starts with `v1.<key id>.`; key ids are 16 hex characters, so no LIKE escaping is needed. */
const keyPrefix = (keyId: string) => `v1.${keyId}.%`;

/** Up to `limit` values of the column sealed with the key `keyId`, leaving out `skip` (values that did not open). */
export async function findSealedWithKey(db: DbClient, { table, column }: SealedColumn, keyId: string, skip: string[], limit: number): Promise<string[]> {
  const rows = await db.$queryRawUnsafe<{ value: string }[]>(
    `SELECT "${column}" AS value FROM "${table}" WHERE "${column}" LIKE $1 AND NOT ("${column}" = ANY($2::text[])) LIMIT ${limit}`,
    keyPrefix(keyId),
    skip,
  );
  return rows.map((row) => row.value);
}

/**
 * Replaces one sealed value by its re-sealed form. Matching on the old value (each sealing
 * is unique) leaves a row alone when its secret changed meanwhile, e.g. a token refresh.
 */
export function replaceSealedValue(db: DbClient, { table, column }: SealedColumn, from: string, to: string): Promise<number> {
  return db.$executeRawUnsafe(`UPDATE "${table}" SET "${column}" = $2 WHERE "${column}" = $1`, from, to);
}

/** How many values of the column are not sealed with the key `keyId`. */
export async function countSealedWithOtherKeys(db: DbClient, { table, column }: SealedColumn, keyId: string): Promise<number> {
  const [row] = await db.$queryRawUnsafe<{ count: number }[]>(
    `SELECT count(*)::int AS count FROM "${table}" WHERE "${column}" IS NOT NULL AND "${column}" NOT LIKE $1`,
    keyPrefix(keyId),
  );
  return row?.count ?? 0;
}
