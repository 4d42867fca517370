// streamRows (packages/db/src/client.ts): a read straight through pg, each row handed over as
// an array as it arrives; a failing statement or row handler rejects and leaves the pool usable.
import { createDatabase, type Database, Prisma, streamRows } from "@svc/db";
import { createTestDatabase } from "@svc/testing";
import { afterEach, describe, expect, it } from "vitest";

let db: Database | undefined;
afterEach(() => db?.$disconnect());

const read = async (database: Database, sql: Prisma.Sql) => {
  const rows: unknown[][] = [];
  await streamRows(database, sql, (row) => rows.push(row));
  return rows;
};

describe("streamRows", () => {
  it("hands each row over as an array of pg's values, on a statement prepared once per connection", async () => {
    db = createDatabase(await createTestDatabase(), { max: 1 });
    const statement = (n: number) => Prisma.sql`SELECT i::bigint, i * 0.5::float8, 'x' || i, i % 2 = 0, NULL::text FROM generate_series(1, ${n}::int) i`;
    expect(await read(db, statement(3))).toEqual([
      ["1", 0.5, "x1", false, null],
      ["2", 1, "x2", true, null],
      ["3", 1.5, "x3", false, null],
    ]);
    expect(await read(db, statement(2))).toHaveLength(2);
    const prepared = await db.$queryRaw<Array<{ name: string }>>`SELECT name FROM pg_prepared_statements WHERE statement LIKE ${"%generate_series%"}`;
    expect(prepared).toHaveLength(1);
  });

  it("rejects with the statement's error or the handler's, and the pool still answers", async () => {
    db = createDatabase(await createTestDatabase(), { max: 1 });
    await expect(read(db, Prisma.sql`SELECT 1 / (i - 2) FROM generate_series(1, 3) i`)).rejects.toThrow(/division by zero/);
    const handlerError = new Error("not this row");
    await expect(
      streamRows(db, Prisma.sql`SELECT i FROM generate_series(1, 5) i`, (row) => {
        if (row[0] === 2) throw handlerError;
      }),
    ).rejects.toBe(handlerError);
    expect(await read(db, Prisma.sql`SELECT 42`)).toEqual([[42]]);
  });
});
