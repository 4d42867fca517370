// Statements are prepared on the pool's connections (packages/db/src/statement-names.ts) unless
// turned off: pg_prepared_statements of the connection lists them.
import { createDatabase, type Database } from "@svc/db";
import { createTestDatabase } from "@svc/testing";
import { afterEach, describe, expect, it } from "vitest";

let db: Database | undefined;
afterEach(() => db?.$disconnect());

/** Runs a statement three times on a pool of one connection, then lists what that connection prepared. */
async function preparedAfterUse(preparedStatements?: boolean) {
  db = createDatabase(await createTestDatabase(), { max: 1, ...(preparedStatements !== undefined && { preparedStatements }) });
  for (let i = 0; i < 3; i++) await db.tenant.findMany({ where: { name: `prepared-${i}` }, select: { id: true } });
  return db.$queryRaw<Array<{ name: string; statement: string }>>`SELECT name, statement FROM pg_prepared_statements`;
}

describe("prepared statements", () => {
  it("are prepared once per connection by default", async () => {
    const prepared = await preparedAfterUse();
    const tenants = prepared.filter((s) => s.statement.includes('"tenants"'));
    expect(tenants).toHaveLength(1);
    expect(tenants[0]!.name).toMatch(/^svc_/);
  });

  it("are not prepared when turned off", async () => {
    expect(await preparedAfterUse(false)).toEqual([]);
  });
});
