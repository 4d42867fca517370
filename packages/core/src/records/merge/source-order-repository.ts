import type { DbClient } from "../../platform/index.ts";

const orderFields = { scope: true, sources: true, updatedAt: true } as const;

export function listSourceOrders(db: DbClient, userId: string) {
  return db.sourceOrder.findMany({ where: { userId }, orderBy: { scope: "asc" }, select: orderFields });
}

export function upsertSourceOrder(db: DbClient, userId: string, scope: string, sources: string[]) {
  return db.sourceOrder.upsert({
    where: { userId_scope: { userId, scope } },
    create: { userId, scope, sources },
    update: { sources },
    select: orderFields,
  });
}

export async function deleteSourceOrder(db: DbClient, userId: string, scope: string): Promise<boolean> {
  const { count } = await db.sourceOrder.deleteMany({ where: { userId, scope } });
  return count === 1;
}
