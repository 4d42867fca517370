// A transaction waits for a free pooled connection longer than Prisma's default 2 s: under
// load (bench/load.bench.ts, 200 connections) requests queue for the pool, and a transaction
// that gave up after 2 s answered 500.
import { createDatabase } from "@svc/db";
import { createTestDatabase } from "@svc/testing";
import { expect, it } from "vitest";

it("starts a transaction once the only pooled connection is free again, after more than 2 s", async () => {
  const db = createDatabase(await createTestDatabase(), { max: 1 });
  try {
    const holding = db.$transaction(async (tx) => tx.$executeRaw`SELECT pg_sleep(2.5)`);
    // Queued behind the first for the pool's one connection.
    const waiting = db.$transaction(async (tx) => tx.$queryRaw<Array<{ one: number }>>`SELECT 1 AS one`);
    const [, answer] = await Promise.all([holding, waiting]);
    expect(answer).toEqual([{ one: 1 }]);
  } finally {
    await db.$disconnect();
  }
});
