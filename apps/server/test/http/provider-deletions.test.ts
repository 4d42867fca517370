import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { createUser, mintToken } from "../helpers/records.ts";

// Deletions a device reports (HealthKit deleted objects, Health Connect deletion records)
// remove the records and leave tombstones, so a late copy is never stored again.

let svc: TestService;
let key: string;

beforeAll(async () => {
  svc = await startTestService();
  key = (await svc.createTenant()).api_key;
});
afterAll(() => svc?.stop());

async function uploadAndProcess(token: string, route: string, lines: unknown[]) {
  const answer = await svc.call(`/v1/ingest/${route}`, {
    method: "POST",
    rawBody: lines.map((line) => JSON.stringify(line)).join("\n"),
    headers: { authorization: `Bearer ${token}`, "content-type": "application/x-ndjson" },
  });
  expect(answer.status, answer.text).toBe(202);
  for (let i = 0; i < 100; i++) {
    const raw = await svc.db.rawObject.findFirst({ where: { id: answer.body.upload_id } });
    if (raw?.status === "processed") return raw;
    expect(raw?.status).not.toBe("failed");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the ETL did not process the upload");
}

async function uploader() {
  const user = await createUser(svc, key);
  return { user, token: await mintToken(svc, key, user, ["upload"]) };
}

const events = (user: string, type: string) => svc.db.outboxEvent.findMany({ where: { userId: user, type }, orderBy: { createdAt: "asc" } });
const source = { name: "Watch", bundle_id: "com.apple.health.watch" };
const steps = { kind: "quantity", uuid: "Q-STEPS", type: "HKQuantityTypeIdentifierStepCount", value: 500, unit: "count", start: "2024-03-01T08:00:00Z", end: "2024-03-01T08:10:00Z", timezone: "Europe/Berlin", source };
const heartRate = { kind: "quantity", uuid: "Q-HR", type: "HKQuantityTypeIdentifierHeartRate", value: 61, unit: "count/min", start: "2024-03-01T08:00:00Z", source };
const flow = { kind: "category", uuid: "C-FLOW", type: "HKCategoryTypeIdentifierMenstrualFlow", value: 3, start: "2024-03-01T00:00:00Z", end: "2024-03-02T00:00:00Z", metadata: { HKMenstrualCycleStart: true }, source };
const deleted = (uuid: string, type: string) => ({ kind: "deleted", uuid, type });

describe("HealthKit deleted objects in an Apple Health upload", () => {
  it("removes the records, updates what was derived from them, and sends one data.deleted", async () => {
    const { user, token } = await uploader();
    await uploadAndProcess(token, "apple-health", [steps, heartRate, flow]);
    expect((await svc.call(`/v1/users/${user}/daily?view=all`, { key })).body.data).toHaveLength(1);
    expect((await svc.call(`/v1/users/${user}/menstrual-cycles`, { key })).body.data).toHaveLength(1);

    await uploadAndProcess(token, "apple-health", [deleted("Q-STEPS", "HKQuantityTypeIdentifierStepCount"), deleted("C-FLOW", "HKCategoryTypeIdentifierMenstrualFlow")]);

    const samples = await svc.call(`/v1/users/${user}/samples?type=step_count&view=all`, { key });
    expect(samples.body.data).toEqual([]);
    expect((await svc.call(`/v1/users/${user}/samples?type=heart_rate&view=all`, { key })).body.data).toHaveLength(1);
    expect((await svc.call(`/v1/users/${user}/category-samples?type=menstrual_flow`, { key })).body.data).toEqual([]);
    // The derived daily total and the cycle went with their samples.
    expect((await svc.call(`/v1/users/${user}/daily?view=all`, { key })).body.data).toEqual([]);
    expect((await svc.call(`/v1/users/${user}/menstrual-cycles`, { key })).body.data).toEqual([]);

    const [event, ...more] = await events(user, "data.deleted");
    expect(more).toEqual([]);
    expect(event!.data).toEqual({ user_id: user, external_ref: null, provider: "apple_health", records_deleted: 2 });
  });

  it("never stores a late copy of a deleted record, and a repeated deletion sends nothing", async () => {
    const { user, token } = await uploader();
    await uploadAndProcess(token, "apple-health", [deleted("Q-STEPS", "HKQuantityTypeIdentifierStepCount")]);
    await uploadAndProcess(token, "apple-health", [steps, heartRate]);
    await uploadAndProcess(token, "apple-health", [deleted("Q-STEPS", "HKQuantityTypeIdentifierStepCount")]);

    expect((await svc.call(`/v1/users/${user}/samples?type=step_count&view=all`, { key })).body.data).toEqual([]);
    expect((await svc.call(`/v1/users/${user}/samples?type=heart_rate&view=all`, { key })).body.data).toHaveLength(1);
    expect(await events(user, "data.deleted")).toEqual([]);
    const written = await events(user, "data.written");
    expect(written.map((e) => (e.data as { records: object }).records)).toEqual([{ quantity_samples: 1 }]);
  });

  it("deletes only the provider's own records of that id", async () => {
    const { user, token } = await uploader();
    const weight = { kind: "quantity", uuid: "SAME-ID", type: "HKQuantityTypeIdentifierBodyMass", value: 72, unit: "kg", start: "2024-03-01T07:00:00Z", source };
    const hcWeight = { recordType: "Weight", metadata: { id: "SAME-ID", dataOrigin: "com.example" }, time: "2024-03-02T07:00:00Z", weight: { inKilograms: 73 } };
    await uploadAndProcess(token, "health-connect", [hcWeight]);
    await uploadAndProcess(token, "apple-health", [weight]);
    await uploadAndProcess(token, "apple-health", [deleted("SAME-ID", "HKQuantityTypeIdentifierBodyMass")]);
    const left = await svc.call(`/v1/users/${user}/samples?type=body_mass&view=all`, { key });
    expect(left.body.data.map((s: { provider: string }) => s.provider)).toEqual(["health_connect"]);
  });
});

describe("Health Connect deletion records", () => {
  it("remove the record with that metadata.id, of whatever kind", async () => {
    const { user, token } = await uploader();
    const session = {
      recordType: "ExerciseSession",
      metadata: { id: "hc-run-1", dataOrigin: "com.strava" },
      startTime: "2024-05-01T06:00:00Z",
      endTime: "2024-05-01T07:00:00Z",
      exerciseType: 56,
    };
    await uploadAndProcess(token, "health-connect", [session]);
    expect((await svc.call(`/v1/users/${user}/workouts?view=all`, { key })).body.data).toHaveLength(1);
    await uploadAndProcess(token, "health-connect", [{ recordType: "Deleted", recordId: "hc-run-1" }]);
    expect((await svc.call(`/v1/users/${user}/workouts?view=all`, { key })).body.data).toEqual([]);
    const [event] = await events(user, "data.deleted");
    expect(event!.data).toMatchObject({ provider: "health_connect", records_deleted: 1 });
  });
});
