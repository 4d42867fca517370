// Rate limits count in memory and add to the shared count in the database at most once a
// second per bucket (identity/rate-limits.ts), yet two processes on one database keep the limit.
import { deleteRateLimitRows, type Principal, RateLimits } from "@svc/core";
import { createDatabase, type Database } from "@svc/db";
import { createTestDatabase } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

let db: Database;

beforeAll(async () => {
  db = createDatabase(await createTestDatabase(), { max: 4 });
});
afterAll(() => db?.$disconnect());

/** The database as RateLimits sees it, counting its writes to rate_limits. */
function countingWrites() {
  const writes = { count: 0 };
  const client = db.$extends({
    query: {
      rateLimit: {
        async upsert({ args, query }) {
          writes.count++;
          return query(args);
        },
      },
      // Calls added to an open window (an UPDATE of the row).
      async $queryRaw({ args, query }) {
        writes.count++;
        return query(args);
      },
    },
  }) as unknown as Database;
  return { client, writes };
}

const tenant = (tenantId: string): Principal => ({ kind: "tenant", tenantId, keyId: "k" });

async function outcome(limits: RateLimits, principal: Principal): Promise<number> {
  try {
    await limits.consume(principal);
    return 200;
  } catch (error) {
    expect(error).toMatchObject({ code: "too_many_requests" });
    return 429;
  }
}

describe("rate limits counted in memory", () => {
  it("writes once for a bucket's first call and then at most once a second, and the shared count catches up", async () => {
    const { client, writes } = countingWrites();
    const limits = new RateLimits(client, { tenant: 10_000, user: 0, windowSeconds: 3600 });
    const tenantId = "00000000-0000-4000-8000-000000000001";
    const caller = tenant(tenantId);
    const started = Date.now();
    for (let i = 0; i < 500; i++) await limits.consume(caller);
    const elapsedSeconds = (Date.now() - started) / 1000;
    expect(writes.count).toBeLessThanOrEqual(2 + Math.floor(elapsedSeconds));

    await expect
      .poll(async () => (await db.rateLimit.findUnique({ where: { key: `tenant:${tenantId}` } }))?.points, { timeout: 5_000, interval: 200 })
      .toBe(500);
  });

  it("does not bring back a bucket's row deleted with its tenant by calls made before", async () => {
    const limits = new RateLimits(db, { tenant: 10_000, user: 0, windowSeconds: 3600 });
    const tenantId = "00000000-0000-4000-8000-000000000003";
    const key = `tenant:${tenantId}`;
    for (let i = 0; i < 5; i++) await limits.consume(tenant(tenantId));
    expect(await db.rateLimit.findUnique({ where: { key } })).not.toBeNull();
    // The tenant's deletion removes the row while calls wait in memory for the next flush.
    await deleteRateLimitRows(db, [key]);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await db.rateLimit.findUnique({ where: { key } })).toBeNull();
    expect(await outcome(limits, tenant(tenantId))).toBe(200);
  });

  it("keeps the limit exactly across two processes calling in turn", async () => {
    const one = new RateLimits(db, { tenant: 10, user: 0, windowSeconds: 3600 });
    const two = new RateLimits(db, { tenant: 10, user: 0, windowSeconds: 3600 });
    const caller = tenant("00000000-0000-4000-8000-000000000002");
    const answers: number[] = [];
    for (let i = 0; i < 15; i++) answers.push(await outcome(i % 2 === 0 ? one : two, caller));
    expect(answers.filter((status) => status === 200)).toHaveLength(10);
    expect(answers.slice(10)).toEqual([429, 429, 429, 429, 429]);
  });
});
