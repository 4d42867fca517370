import { describe, expect, it } from "vitest";
import { startTestService } from "../helpers/test-service.ts";

describe("SVC_BOOTSTRAP_TENANT", () => {
  it("creates the tenant at the first start and logs its working key once, never again", async () => {
    const first = await startTestService({ SVC_BOOTSTRAP_TENANT: "acme" });
    const key = /svc_sk_[0-9A-Za-z]{43}/.exec(first.logs.join("\n"))?.[0];
    expect(key).toBeDefined();
    const created = await first.call("/v1/users", { key: key!, body: { external_ref: "first" } });
    expect(created.status).toBe(201);
    await first.stop();

    const second = await startTestService({ SVC_BOOTSTRAP_TENANT: "acme" }, { databaseUrl: first.databaseUrl });
    try {
      expect(second.logs.join("\n")).not.toMatch(/svc_sk_/);
      expect(await second.db.tenant.count({ where: { name: "acme" } })).toBe(1);
      const listed = await second.call("/v1/users", { key: key! });
      expect(listed.body.data.map((user: { external_ref: string }) => user.external_ref)).toEqual(["first"]);
    } finally {
      await second.stop();
    }
  });
});
