// The probes of orchestrators: GET /healthz (liveness) and GET /readyz (readiness), on the
// API's port and, for SVC_ROLE=etl, on the port it listens on for them alone.
import { connectSql } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/test-service.ts";

let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({ SVC_ROLE: "api" });
});
afterAll(() => svc?.stop());

/** Runs SQL as the server's superuser on its `postgres` database (to lock the test database). */
async function asAdmin(sql: string): Promise<void> {
  const adminUrl = new URL(svc.databaseUrl);
  adminUrl.pathname = "/postgres";
  const client = await connectSql(adminUrl.toString());
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describe("GET /healthz and GET /readyz", () => {
  it("answer 200 without authentication, not cached, and stay out of the access log", async () => {
    const health = await svc.call("/healthz");
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: "ok" });
    expect(health.headers.get("cache-control")).toBe("no-store");

    const ready = await svc.call("/readyz");
    expect(ready.status).toBe(200);
    expect(ready.body).toEqual({ status: "ok", checks: { database: "pass", shutdown: "pass" } });
    expect(ready.headers.get("cache-control")).toBe("no-store");

    await svc.call("/openapi.yaml");
    const paths = svc.logs.map((line) => JSON.parse(line)).flatMap((line) => (line.req?.path ? [line.req.path] : []));
    expect(paths).toContain("/openapi.yaml");
    expect(paths).not.toContain("/healthz");
    expect(paths).not.toContain("/readyz");
  });

  it("/readyz answers a 503 problem naming the database while it refuses connections, and 200 once it is back", async () => {
    const name = new URL(svc.databaseUrl).pathname.slice(1);
    await asAdmin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS false`);
    try {
      await asAdmin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}' AND pid <> pg_backend_pid()`);
      const down = await svc.call("/readyz");
      expect(down.status).toBe(503);
      expect(down.headers.get("content-type")).toContain("application/problem+json");
      expect(down.headers.get("cache-control")).toBe("no-store");
      expect(down.body).toMatchObject({
        status: 503,
        title: "Service Unavailable",
        detail: "Not ready. The database did not answer.",
        checks: { database: "fail", shutdown: "pass" },
      });
      expect(down.text).not.toContain(svc.databaseUrl);
      // Liveness does not depend on the database.
      expect((await svc.call("/healthz")).status).toBe(200);
    } finally {
      await asAdmin(`ALTER DATABASE ${name} ALLOW_CONNECTIONS true`);
    }
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await svc.call("/readyz")).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
  });
});

describe("SVC_ROLE=etl", () => {
  it("listens for the probes only", async () => {
    const etl = await startTestService({ SVC_ROLE: "etl" }, { databaseUrl: svc.databaseUrl, noHttp: true });
    try {
      expect((await etl.call("/healthz")).body).toEqual({ status: "ok" });
      expect((await etl.call("/readyz")).status).toBe(200);
      const api = await etl.call("/v1/users");
      expect(api.status).toBe(404);
      expect(api.headers.get("content-type")).toContain("application/problem+json");
      expect((await etl.call("/openapi.yaml")).status).toBe(404);
    } finally {
      await etl.stop();
    }
  });
});
