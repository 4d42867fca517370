import { createEmptyTestDatabase } from "@svc/testing";
import { describe, expect, it } from "vitest";
import { startTestService } from "../helpers/test-service.ts";

describe("SVC_ROLE", () => {
  it("api serves HTTP without workers; etl runs the jobs the api queued", async () => {
    const api = await startTestService({ SVC_ROLE: "api" });
    try {
      const { api_key: key } = await api.createTenant();
      const user = (await api.call("/v1/users", { key, body: {} })).body;
      const { job_id } = (await api.call(`/v1/users/${user.id}`, { key, method: "DELETE" })).body;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect((await api.call(`/v1/deletions/${job_id}`, { key })).body.status).toBe("pending");

      const etl = await startTestService({ SVC_ROLE: "etl" }, { databaseUrl: api.databaseUrl, noHttp: true });
      try {
        let status = "pending";
        for (let i = 0; i < 100 && status !== "done"; i++) {
          await new Promise((resolve) => setTimeout(resolve, 100));
          status = (await api.call(`/v1/deletions/${job_id}`, { key })).body.status;
        }
        expect(status).toBe("done");
      } finally {
        await etl.stop();
      }
    } finally {
      await api.stop();
    }
  });

  it("SVC_MIGRATE_ON_START=false leaves the database as it is; the default migrates", async () => {
    const url = await createEmptyTestDatabase();
    const migrationTable = `SELECT to_regclass('public._prisma_migrations')::text AS name`;
    const unmigrated = await startTestService({ SVC_MIGRATE_ON_START: "false" }, { databaseUrl: url });
    try {
      expect(await unmigrated.db.$queryRawUnsafe(migrationTable)).toEqual([{ name: null }]);
    } finally {
      await unmigrated.stop();
    }
    const migrated = await startTestService({}, { databaseUrl: url });
    try {
      expect(await migrated.db.$queryRawUnsafe(migrationTable)).toEqual([{ name: "_prisma_migrations" }]);
    } finally {
      await migrated.stop();
    }
  });
});
