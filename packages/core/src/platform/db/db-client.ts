import type { Database, Prisma } from "@svc/db";

/** The database or an open transaction: repositories accept either. */
export type DbClient = Database | Prisma.TransactionClient;
