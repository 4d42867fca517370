import { PrismaClient } from "@svc/db";
import { PrismaPg } from "@prisma/adapter-pg";
import { describe, expect, it } from "vitest";
import { createLogger } from "../src/logger.ts";

describe("logged errors", () => {
  it("never carry the values a failed Prisma query was given", async () => {
    const marker = "value-that-must-not-leak-91c2";
    // Prisma validates arguments before it connects: no database is needed to get the error.
    const db = new PrismaClient({ adapter: new PrismaPg({ connectionString: "postgresql://x@127.0.0.1:1/x" }) });
    const error = await db.user.create({ data: { tenantId: marker, externalRef: 123 as never } }).catch((e: unknown) => e);
    expect(String((error as Error).message)).toContain(marker); // Prisma's own message does quote it

    const lines: string[] = [];
    const logger = createLogger("info", { write: (line: string) => void lines.push(line) });
    logger.error({ err: new Error("procedure failed", { cause: error }) }, "procedure failed");
    const pgError = Object.assign(new Error("duplicate key value violates unique constraint"), {
      code: "23505",
      detail: `Key (external_ref)=(${marker}) already exists.`,
    });
    logger.error({ err: pgError }, "query failed");

    const logged = lines.join("\n");
    expect(logged).not.toContain(marker);
    expect(logged).toContain("Argument `externalRef`");
    expect(logged).toContain("23505");
  });
});
