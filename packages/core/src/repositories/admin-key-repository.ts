import type { DbClient } from "./db-client.ts";

export function insertAdminKey(db: DbClient, input: { name: string; keyHash: string }) {
  return db.adminKey.create({ data: input, select: { id: true, name: true } });
}

export function findActiveAdminKey(db: DbClient, keyHash: string) {
  return db.adminKey.findFirst({ where: { keyHash, revokedAt: null }, select: { id: true } });
}
