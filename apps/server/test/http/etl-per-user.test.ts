// ETL jobs of different users run side by side; one user's raw objects are processed one
// after the other, in the order they were received. Observed through events, never
// durations: the first upload of user A is held (the test holds its raw object's row lock,
// which the ETL takes), and while it is held user B's upload, received after A's second one,
// is processed, and A's second is not.
import { connectSql, waitUntil } from "@svc/testing";
import { expect, it } from "vitest";
import { createUser, mintToken } from "../helpers/records.ts";
import { startTestService } from "../helpers/test-service.ts";
import { heartRateLine, uploadNdjson } from "../helpers/uploads.ts";

it("processes two users' uploads at once and one user's uploads one at a time, in order", { timeout: 60_000 }, async () => {
  // Uploads accepted by an api process: their ETL jobs wait until the etl process starts.
  const api = await startTestService({ SVC_ROLE: "api" });
  const sql = await connectSql(api.databaseUrl);
  const holder = await connectSql(api.databaseUrl);
  let etl: Awaited<ReturnType<typeof startTestService>> | undefined;
  try {
    const { api_key: key } = await api.createTenant();
    const upload = async (token: string, minute: number): Promise<string> => {
      const answer = await uploadNdjson(api, token, "bluetooth", [heartRateLine(60 + minute, `2026-11-01T08:${String(minute).padStart(2, "0")}:00Z`)]);
      expect(answer.status, answer.text).toBe(202);
      return answer.body.upload_id as string;
    };
    const tokenA = await mintToken(api, key, await createUser(api, key), ["upload"]);
    const tokenB = await mintToken(api, key, await createUser(api, key), ["upload"]);
    const a1 = await upload(tokenA, 1);
    const a2 = await upload(tokenA, 2);
    const b1 = await upload(tokenB, 3);

    const rawObject = async (id: string) =>
      (await sql.query<{ status: string; processed_at: Date | null }>("SELECT status, processed_at FROM raw_objects WHERE id = $1", [id])).rows[0]!;
    const statusOf = async (id: string) => (await rawObject(id)).status;
    const jobStateOf = async (id: string) =>
      (await sql.query<{ state: string }>("SELECT state::text FROM pgboss.job WHERE name = 'etl-raw-object' AND data->>'raw_object_id' = $1", [id])).rows[0]!.state;

    await holder.query("BEGIN");
    await holder.query("SELECT 1 FROM raw_objects WHERE id = $1 FOR UPDATE", [a1]);
    etl = await startTestService({ SVC_ROLE: "etl", SVC_DATA_DIR: api.dataDir }, { databaseUrl: api.databaseUrl, noHttp: true });

    // A's first ETL runs (and waits for the held row) while B's upload, received last, is processed.
    await waitUntil(async () => (await jobStateOf(a1)) === "active", 30_000, "the ETL of A's first upload running");
    await waitUntil(async () => (await statusOf(b1)) === "processed", 30_000, "B's upload processed while A's first is held");
    expect(await jobStateOf(a1)).toBe("active");
    expect(await statusOf(a1)).toBe("pending");
    // A's second, received before B's, waits for A's first.
    expect(await statusOf(a2)).toBe("pending");

    await holder.query("COMMIT");
    await waitUntil(async () => (await statusOf(a2)) === "processed", 30_000, "A's second upload processed once the first is released");
    const first = await rawObject(a1);
    const second = await rawObject(a2);
    expect(first.status).toBe("processed");
    // One ETL of a user at a time (core's user lock): the later end is the later ETL.
    expect(first.processed_at!.getTime()).toBeLessThan(second.processed_at!.getTime());
  } finally {
    await holder.end();
    await sql.end();
    await etl?.stop();
    await api.stop();
  }
});
