import type { Prisma } from "@svc/db";
import type { DbClient } from "./db-client.ts";

export function insertOutboxEvent(
  db: DbClient,
  input: { tenantId: string; type: string; userId: string | null; data: Prisma.InputJsonValue },
) {
  return db.outboxEvent.create({ data: input, select: { id: true } });
}
