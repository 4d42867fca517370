import { fixturesDir } from "@svc/testing";
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { createUser, mintToken } from "../helpers/records.ts";

// The shared fixtures (read in place, never copied into the repo).
const FIXTURES = fixturesDir();

let svc: TestService;
let key: string;

beforeAll(async () => {
  svc = await startTestService();
  key = (await svc.createTenant()).api_key;
});
afterAll(() => svc?.stop());

async function uploadAndProcess(route: string, contentType: string, body: string | Buffer) {
  const user = await createUser(svc, key);
  const token = await mintToken(svc, key, user, ["upload"]);
  const answer = await svc.call(`/v1/ingest/${route}`, {
    method: "POST",
    rawBody: body as string,
    headers: { authorization: `Bearer ${token}`, "content-type": contentType },
  });
  return { user, answer, raw: answer.status === 202 ? await processed(answer.body.upload_id) : undefined };
}

async function processed(uploadId: string) {
  for (let i = 0; i < 150; i++) {
    const raw = await svc.db.rawObject.findFirst({ where: { id: uploadId } });
    if (raw && raw.status !== "pending") return raw;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error("the ETL did not process the upload");
}

const activityFixtures = readdirSync(FIXTURES).filter((name) => /\.(gpx|tcx)$/.test(name) || /activity|run|bike|sample-activity|2013/.test(name) && name.endsWith(".fit"));

describe("uploads of the shared fixtures, end to end", () => {
  it.each(activityFixtures.filter((name) => !/corrupt|unexpected-eof|simple_workout/.test(name)))(
    "activity file %s becomes a workout",
    async (name) => {
      const base64 = readFileSync(path.join(FIXTURES, name)).toString("base64");
      const { user, answer, raw } = await uploadAndProcess("activity-files", "text/plain", base64);
      expect(answer.status, answer.text).toBe(202);
      expect(raw?.status).toBe("processed");
      const workouts = await svc.call(`/v1/users/${user}/workouts?view=all`, { key });
      expect(workouts.body.data.length).toBeGreaterThan(0);
      expect(workouts.body.data[0]).toMatchObject({ provider: "activity_files" });
    },
  );

  it.each(["fitparse_activity-settings-corruptheader.fit", "fitparse_activity-unexpected-eof.fit"])(
    "refuses the broken FIT file %s with a 400 and keeps nothing",
    async (name) => {
      const before = await svc.db.rawObject.count();
      const { answer } = await uploadAndProcess("activity-files", "text/plain", readFileSync(path.join(FIXTURES, name)).toString("base64"));
      expect(answer.status).toBe(400);
      expect(answer.body.detail).toContain("line 1");
      expect(await svc.db.rawObject.count()).toBe(before);
    },
  );

  it("an Apple Health export.xml becomes samples (first heart rate 74 count/min at 2024-01-01T01:01:36+02:00)", async () => {
    const xml = readFileSync(path.join(FIXTURES, "applehealth_export_alxdrcirilo.xml"));
    const { user, answer, raw } = await uploadAndProcess("apple-health", "application/xml", xml);
    expect(answer.status, answer.text).toBe(202);
    expect(raw?.status).toBe("processed");
    const samples = await svc.call(`/v1/users/${user}/samples?type=heart_rate&view=all`, { key });
    expect(samples.body.data[0]).toMatchObject({ value: 74, start_date: "2023-12-31T23:01:36.000Z", provider: "apple_health" });
  });

  it.each([
    // Values read by hand from the files' session messages (FIT SDK's FitToCSV).
    ["fitparse_2013-02-06-12-11-14.fit", { activity_type: "running", start_date: "2013-02-06T12:11:14.000Z", distance_meters: 4835.38, average_heart_rate: 147, max_heart_rate: 171 }],
    ["fitparse_sample-activity.fit", { activity_type: "cycling", distance_meters: 88797.21, average_heart_rate: 166, max_heart_rate: 191 }],
    ["fitparse_developer-types-sample.fit", { distance_meters: 6753.99 }],
  ])("the stored workout of %s carries the file's distance and heart rate", async (name, expected) => {
    const base64 = readFileSync(path.join(FIXTURES, name)).toString("base64");
    const { user, answer } = await uploadAndProcess("activity-files", "text/plain", base64);
    expect(answer.status, answer.text).toBe(202);
    const workouts = await svc.call(`/v1/users/${user}/workouts?view=all`, { key });
    expect(workouts.body.data).toHaveLength(1);
    expect(workouts.body.data[0]).toMatchObject(expected);
  });

  it("the heart rates decoded in gatt_vectors.json are the values stored from the Bluetooth route", async () => {
    const vectors = JSON.parse(readFileSync(path.join(FIXTURES, "gatt_vectors.json"), "utf8")) as Array<{
      uuid: string;
      hex: string;
      valid: boolean;
      decoded?: { heart_rate?: number };
    }>;
    const heartRates = vectors.filter((v) => v.valid && v.uuid.toLowerCase() === "0x2a37" && typeof v.decoded?.heart_rate === "number");
    expect(heartRates.length).toBeGreaterThan(0);
    const at = (i: number) => new Date(Date.UTC(2026, 2, 1, 11, 0, i)).toISOString();
    const lines = heartRates.map((v, i) => JSON.stringify({ characteristic: "2a37", value: v.hex, received_at: at(i) }));
    const { user, answer } = await uploadAndProcess("bluetooth", "application/x-ndjson", lines.join("\n"));
    expect(answer.status, answer.text).toBe(202);
    const samples = await svc.call(`/v1/users/${user}/samples?type=heart_rate&view=all&limit=1000`, { key });
    const byTime = new Map(samples.body.data.map((s: { start_date: string; value: number }) => [s.start_date, s.value]));
    // A strap reporting "contact supported, not detected" is not stored (docs/reference/upload-formats.md, Bluetooth).
    const expected = heartRates.map((v) => ((Number.parseInt(v.hex.slice(0, 2), 16) & 0x06) === 0x04 ? undefined : v.decoded!.heart_rate));
    expect(expected).toContain(undefined);
    expect(heartRates.map((v, i) => byTime.get(at(i)))).toEqual(expected);
  });

  it("the valid vectors of gatt_vectors.json are accepted by the Bluetooth route and processed into samples", async () => {
    const vectors = JSON.parse(readFileSync(path.join(FIXTURES, "gatt_vectors.json"), "utf8")) as unknown;
    const lines = collectValidVectors(vectors).map((v, i) =>
      JSON.stringify({ characteristic: v.characteristic, value: v.hex, received_at: new Date(Date.UTC(2026, 2, 1, 10, 0, i)).toISOString() }),
    );
    expect(lines.length).toBeGreaterThan(0);
    const { user, answer, raw } = await uploadAndProcess("bluetooth", "application/x-ndjson", lines.join("\n"));
    expect(answer.status, answer.text).toBe(202);
    expect(raw?.status).toBe("processed");
    expect(await svc.db.quantitySample.count({ where: { userId: user } })).toBeGreaterThan(0);
  });
});

/** The fixture's vectors marked valid: `{uuid: "0x2A37", hex, valid}`. */
function collectValidVectors(vectors: unknown): Array<{ characteristic: string; hex: string }> {
  const list = vectors as Array<{ uuid: string; hex: string; valid: boolean }>;
  return list.filter((v) => v.valid).map((v) => ({ characteristic: v.uuid, hex: v.hex }));
}
