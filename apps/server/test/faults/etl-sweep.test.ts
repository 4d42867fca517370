// An accepted upload whose ETL job is gone (cut at shutdown on its last attempt, a give-up that
// could not reach the database) is not left pending: the etl-sweep job gives it a new ETL job.
import { createDatabase } from "@svc/db";
import { expect, it } from "vitest";
import { startTestService } from "../helpers/test-service.ts";
import { heartRateLine, uploadNdjson } from "../helpers/uploads.ts";
import { startTestQueue } from "../helpers/webhooks.ts";

it("queues a new ETL job for a raw object pending long after it arrived with no job left, and for nothing else", { timeout: 60_000 }, async () => {
  // Uploads accepted by an api process: their ETL jobs wait, nobody runs them yet.
  const api = await startTestService({ SVC_ROLE: "api" });
  const queue = await startTestQueue(api);
  const db = createDatabase(api.databaseUrl, { max: 1 });
  try {
    const { api_key: key } = await api.createTenant();
    // Two users: an ETL of one user's upload processes that user's older pending uploads first.
    const tokenOf = async () => {
      const user = (await api.call("/v1/users", { key, body: {} })).body;
      return (await api.call(`/v1/users/${user.id}/tokens`, { key, body: { scopes: ["upload"] } })).body.token as string;
    };
    const [tokenA, tokenB] = [await tokenOf(), await tokenOf()];
    const upload = async (token: string, minute: number) => {
      const answer = await uploadNdjson(api, token, "bluetooth", [heartRateLine(60 + minute, `2026-11-01T08:${String(minute).padStart(2, "0")}:00Z`)]);
      expect(answer.status, answer.text).toBe(202);
      return answer.body.upload_id as string;
    };
    const orphan = await upload(tokenA, 1); // old, its job failed for good
    const waiting = await upload(tokenB, 2); // old, its job still waits
    const recent = await upload(tokenA, 3); // its job failed, but it arrived a moment ago
    const hourAgo = new Date(Date.now() - 60 * 60 * 1000);
    await db.rawObject.updateMany({ where: { id: { in: [orphan, waiting] } }, data: { receivedAt: hourAgo } });
    await db.$executeRawUnsafe(
      `UPDATE pgboss.job SET state = 'failed' WHERE name = 'etl-raw-object' AND data->>'raw_object_id' = ANY($1::text[])`,
      [orphan, recent],
    );
    const jobsOf = (id: string) =>
      db.$queryRawUnsafe<Array<{ state: string }>>(`SELECT state::text FROM pgboss.job WHERE name = 'etl-raw-object' AND data->>'raw_object_id' = $1 ORDER BY created_on`, id);

    // An etl process takes the jobs now; the sweep runs when its job is sent (its schedule is every 10 minutes).
    const etl = await startTestService({ SVC_ROLE: "etl", SVC_DATA_DIR: api.dataDir }, { databaseUrl: api.databaseUrl, noHttp: true });
    try {
      await queue.send("etl-sweep", {});
      const statusOf = async (id: string) => (await db.rawObject.findFirstOrThrow({ where: { id } })).status;
      for (let i = 0; i < 200 && ((await statusOf(orphan)) !== "processed" || (await statusOf(waiting)) !== "processed"); i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await statusOf(orphan)).toBe("processed");
      expect(await statusOf(waiting)).toBe("processed");
      expect((await jobsOf(orphan)).map((job) => job.state)).toEqual(["failed", "completed"]);
      expect((await jobsOf(waiting)).map((job) => job.state)).toEqual(["completed"]); // not queued twice
      expect(await statusOf(recent)).toBe("pending"); // too young to be called orphaned
      expect(await jobsOf(recent)).toHaveLength(1);
      expect(etl.logs.join("\n")).toContain("pending uploads without an ETL job queued again");
    } finally {
      await etl.stop();
    }
  } finally {
    await db.$disconnect();
    await queue.stop();
    await api.stop();
  }
});
