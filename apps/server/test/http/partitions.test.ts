import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensurePartitionsAhead, listSamples, PARTITIONED_TABLES } from "@svc/core";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { createUser, writeSamples } from "../helpers/records.ts";

let svc: TestService;
let key: string;

beforeAll(async () => {
  svc = await startTestService();
  key = (await svc.createTenant()).api_key;
});

afterAll(async () => {
  await svc?.stop();
});

const partitionOf = async (user: string) =>
  (await svc.db.$queryRaw<Array<{ partition: string }>>`
    SELECT tableoid::regclass::text AS partition FROM quantity_sample_chunks WHERE user_id = ${user}::uuid`).map((row) => row.partition);

describe("partitions of quantity_sample_chunks", () => {
  it("are made three months ahead at worker start, and a month's rows that landed in the default partition move into its own", async () => {
    const now = new Date();
    const partitions = async () =>
      (await svc.db.$queryRaw<Array<{ name: string }>>`
        SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'quantity_sample_chunks'::regclass ORDER BY 1`).map((row) => row.name);
    const ahead = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 3, 1));
    const aheadName = `quantity_sample_chunks_${ahead.getUTCFullYear()}_${String(ahead.getUTCMonth() + 1).padStart(2, "0")}`;
    // At worker start: the yearly partitions of the migration cover up to 2026, months follow.
    if (ahead.getUTCFullYear() > 2026) expect(await partitions()).toContain(aheadName);

    // A sample dated past every partition goes to the default one until its month is made.
    const user = await createUser(svc, key);
    const later = new Date(Date.UTC(now.getUTCFullYear() + 1, now.getUTCMonth() + 6, 15, 12));
    await writeSamples(svc, user, "garmin", [{ type: "heart_rate", value: 61, start_date: later, source: "garmin" }]);
    expect(await partitionOf(user)).toEqual(["svc_partitions.quantity_sample_chunks_default"]);

    const created = await ensurePartitionsAhead(svc.db, new Date(later.getTime() - 30 * 86_400_000));
    const month = `quantity_sample_chunks_${later.getUTCFullYear()}_${String(later.getUTCMonth() + 1).padStart(2, "0")}`;
    expect(created).toContain(month);
    expect(await partitionOf(user)).toEqual([`svc_partitions.${month}`]);
    // The sample's rollup moved likewise (partitioned by its quarter hour).
    const rollups = await svc.db.$queryRaw<Array<{ partition: string }>>`
      SELECT tableoid::regclass::text AS partition FROM quantity_sample_rollups WHERE user_id = ${user}::uuid`;
    expect(rollups.map((row) => row.partition)).toEqual([`svc_partitions.${month.replace("chunks", "rollups")}`]);
    const page = await listSamples(svc.db, user, { type: "heart_rate", view: "all", limit: 10 });
    expect(page.data.map((s) => [s.start_date, s.value])).toEqual([[later.toISOString(), 61]]);

    // Again, and from two processes at once: nothing more to make.
    const again = await Promise.all([ensurePartitionsAhead(svc.db, later), ensurePartitionsAhead(svc.db, later)]);
    expect(again.flat().length).toBeLessThanOrEqual(2 * PARTITIONED_TABLES.length);
    expect(await ensurePartitionsAhead(svc.db, later)).toEqual([]);
  });
});
