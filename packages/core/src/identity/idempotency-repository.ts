import type { Prisma } from "@svc/db";
import type { DbClient } from "../platform/index.ts";

export interface IdempotencyIdentity {
  tenantId: string;
  scope: string;
  operation: string;
  key: string;
}

/** Claims the key; false when a record for it already exists. */
export async function claimIdempotencyKey(
  db: DbClient,
  identity: IdempotencyIdentity & { requestHash: string; expiresAt: Date },
): Promise<boolean> {
  const inserted = await db.idempotencyRecord.createMany({ data: identity, skipDuplicates: true });
  return inserted.count === 1;
}

export function findIdempotencyRecord(db: DbClient, identity: IdempotencyIdentity) {
  return db.idempotencyRecord.findUnique({
    where: { scope_operation_key: { scope: identity.scope, operation: identity.operation, key: identity.key } },
    select: {
      id: true,
      requestHash: true,
      state: true,
      responseStatus: true,
      responseBody: true,
      createdAt: true,
      expiresAt: true,
    },
  });
}

export function completeIdempotencyRecord(
  db: DbClient,
  identity: IdempotencyIdentity,
  response: { status: number; body: Prisma.InputJsonValue; userId: string | null },
) {
  return db.idempotencyRecord.update({
    where: { scope_operation_key: { scope: identity.scope, operation: identity.operation, key: identity.key } },
    data: { state: "completed", responseStatus: response.status, responseBody: response.body, userId: response.userId },
    select: { id: true },
  });
}

export function deleteIdempotencyRecord(db: DbClient, id: string) {
  return db.idempotencyRecord.deleteMany({ where: { id } });
}

export function deleteIdempotencyRecordsOfUser(db: DbClient, userId: string) {
  return db.idempotencyRecord.deleteMany({ where: { userId } });
}
