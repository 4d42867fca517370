import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { at, createUser, writeSamples } from "../helpers/records.ts";

let svc: TestService;
let key: string;

beforeAll(async () => {
  svc = await startTestService();
  key = (await svc.createTenant()).api_key;
});
afterAll(() => svc?.stop());

const steps = (iso: string) => ({ type: "step_count", value: 10, start_date: at(iso) });

describe("GET /v1/users/{id}/coverage", () => {
  it("counts records per provider per UTC day, by kind", async () => {
    const user = await createUser(svc, key);
    await writeSamples(svc, user, "garmin", [steps("2026-03-01T00:00:00Z"), steps("2026-03-01T23:59:59Z"), steps("2026-03-02T10:00:00Z")]);
    await writeSamples(svc, user, "apple_health", [steps("2026-03-01T12:00:00Z"), { type: "heart_rate", value: 60, start_date: at("2026-03-01T12:00:00Z") }]);
    const answer = await svc.call(`/v1/users/${user}/coverage?start=2026-03-01&end=2026-03-03`, { key });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.start).toBe("2026-03-01T00:00:00.000Z");
    expect(answer.body.data.map((d: { date: string; provider: string; total: number }) => [d.date, d.provider, d.total])).toEqual([
      ["2026-03-01", "apple_health", 2],
      ["2026-03-01", "garmin", 2],
      ["2026-03-02", "garmin", 1],
    ]);
    expect(answer.body.data[0].records).toMatchObject({ quantity_samples: 2, sleep_sessions: 0, daily_summaries: 0 });

    const garmin = await svc.call(`/v1/users/${user}/coverage?start=2026-03-01&end=2026-03-03&provider=garmin`, { key });
    expect(garmin.body.data).toHaveLength(2);
    const outside = await svc.call(`/v1/users/${user}/coverage?start=2026-04-01&end=2026-04-03`, { key });
    expect(outside.body.data).toEqual([]);
  });

  it("covers the 30 days before end without start, and refuses windows over 366 days", async () => {
    const user = await createUser(svc, key);
    const answer = await svc.call(`/v1/users/${user}/coverage?end=2026-03-31`, { key });
    expect(answer.body).toMatchObject({ start: "2026-03-01T00:00:00.000Z", end: "2026-03-31T00:00:00.000Z" });
    const wide = await svc.call(`/v1/users/${user}/coverage?start=2025-01-01&end=2026-03-31`, { key });
    expect(wide.status).toBe(400);
    expect(wide.body.detail).toContain("366");
    const otherKey = (await svc.createTenant()).api_key;
    expect((await svc.call(`/v1/users/${user}/coverage`, { key: otherKey })).status).toBe(404);
  });
});
