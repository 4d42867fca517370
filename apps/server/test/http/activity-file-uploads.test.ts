import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onelapRide, sdkRecords } from "../../../../packages/providers/test/helpers/fit-files.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { createUser, mintToken, readAllPages } from "../helpers/records.ts";
import { processed } from "../helpers/uploads.ts";

// Activity files built with the FIT SDK's encoder (packages/providers/test/helpers/fit-files.ts),
// uploaded and read back over HTTP.

let svc: TestService;
let key: string;

beforeAll(async () => {
  svc = await startTestService();
  key = (await svc.createTenant()).api_key;
});
afterAll(() => svc?.stop());

async function uploadActivityFile(user: string, bytes: Uint8Array) {
  const token = await mintToken(svc, key, user, ["upload"]);
  const answer = await svc.call("/v1/ingest/activity-files", {
    method: "POST",
    rawBody: Buffer.from(bytes).toString("base64"),
    headers: { authorization: `Bearer ${token}`, "content-type": "text/plain" },
  });
  return processed(svc, answer);
}

describe("an uploaded FIT ride whose session timestamp is its start (Onelap)", () => {
  it("is stored from its start to start + total_elapsed_time, with its route points and cadence samples", async () => {
    const bytes = onelapRide();
    const records = sdkRecords(bytes);
    const user = await createUser(svc, key);
    expect((await uploadActivityFile(user, bytes)).status).toBe("processed");

    const workouts = await svc.call(`/v1/users/${user}/workouts?view=all`, { key });
    expect(workouts.body.data).toHaveLength(1);
    const [workout] = workouts.body.data;
    expect(workout).toMatchObject({ activity_type: "cycling", start_date: "2024-03-05T18:00:00.000Z", end_date: "2024-03-05T18:12:00.000Z", duration_seconds: 720 });
    const route = await readAllPages(svc, `/v1/users/${user}/workouts/${workout.id}/route`, key, 1000);
    expect(route).toHaveLength(records.filter((r) => r.positionLat !== undefined).length);
    const cadence = await readAllPages(svc, `/v1/users/${user}/samples?type=cycling_cadence&view=all`, key, 1000);
    expect(cadence).toHaveLength(records.filter((r) => (r.cadence ?? 0) > 0).length);
    expect(await svc.db.rejectedRecord.count({ where: { userId: user } })).toBe(0);
  });
});
