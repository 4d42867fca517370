import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onelapRide } from "../../../../packages/providers/test/helpers/fit-files.ts";
import { createUser, mintToken, startWithTwoTenants } from "../helpers/records.ts";
import type { TestService } from "../helpers/test-service.ts";
import { heartRateLine, uploadNdjson } from "../helpers/uploads.ts";

// GET /v1/ingest/uploads/{upload_id}: the status of an upload, followed from the 202's Location.

let svc: TestService;
let key: string;
let otherKey: string;

beforeAll(async () => {
  ({ svc, key, otherKey } = await startWithTwoTenants());
});
afterAll(() => svc?.stop());

async function uploader() {
  const user = await createUser(svc, key);
  return { user, token: await mintToken(svc, key, user, ["upload"]) };
}

/** Follows the status at `location` with `secret` until the upload is processed or failed; the last answer. */
async function settled(location: string, secret: string) {
  for (let i = 0; i < 150; i++) {
    const answer = await svc.call(location, { key: secret });
    expect(answer.status, answer.text).toBe(200);
    if (answer.body.status === "processed" || answer.body.status === "failed") return answer;
    expect(["pending", "receiving"]).toContain(answer.body.status);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the upload was not processed");
}

const NO_ROWS = {
  quantity_samples: 0,
  category_samples: 0,
  sleep_sessions: 0,
  workouts: 0,
  nutrition_logs: 0,
  daily_summaries: 0,
  heartbeat_series: 0,
  ecg_recordings: 0,
};

/** A Health Connect weight record at `time` (epoch milliseconds, or an RFC 3339 time). */
const weight = (id: string, time: number | string) =>
  JSON.stringify({ recordType: "Weight", metadata: { id, dataOrigin: "com.example.scale" }, time, weight: { inKilograms: 71.3 } });
/** Year 275760: a valid JavaScript date that svc refuses (times are stored within the years 0001 to 9999). */
const OUT_OF_RANGE = 8.64e15;

describe("GET /v1/ingest/uploads/{upload_id}", () => {
  it("follows an upload from the 202's Location with the uploading token until its rows per table are written", async () => {
    const { user, token } = await uploader();
    const lines = [heartRateLine(72, "2026-03-01T10:00:00Z"), heartRateLine(75, "2026-03-01T10:00:01Z")];
    const accepted = await uploadNdjson(svc, token, "bluetooth", lines);
    expect(accepted.status, accepted.text).toBe(202);
    const uploadId = accepted.body.upload_id;
    expect(uploadId).toMatch(/^[0-9a-f-]{36}$/);
    const location = accepted.headers.get("location");
    expect(location).toBe(`/v1/ingest/uploads/${uploadId}`);

    const answer = await settled(location!, token);
    expect(answer.body).toEqual({
      upload_id: uploadId,
      user_id: user,
      provider: "bluetooth",
      format: "bluetooth-ndjson",
      status: "processed",
      byte_size: accepted.body.byte_size,
      received_at: accepted.body.received_at,
      processed_at: expect.any(String),
      records: { ...NO_ROWS, quantity_samples: 2 },
      skipped_without_consent: 0,
      rejected: { total: 0, first: [] },
      error: null,
    });
    expect(Date.parse(answer.body.processed_at)).toBeGreaterThanOrEqual(Date.parse(answer.body.received_at));

    // A repeat of the same bytes answers the first upload again, with the same Location.
    const repeat = await uploadNdjson(svc, token, "bluetooth", lines);
    expect(repeat.headers.get("idempotent-replayed")).toBe("true");
    expect(repeat.headers.get("location")).toBe(location);
    // Another of the user's upload tokens sees it too; the tenant key sees the same answer.
    const laterToken = await mintToken(svc, key, user, ["upload"]);
    expect((await svc.call(location!, { key: laterToken })).body).toEqual(answer.body);
    expect((await svc.call(location!, { key })).body).toEqual(answer.body);
  });

  it("lists the rejected records by line with their reasons (never a value), and the rows the other lines wrote", async () => {
    const { token } = await uploader();
    const body = [weight("a", OUT_OF_RANGE), weight("b", "2026-03-01T08:00:00Z"), weight("c", OUT_OF_RANGE), "", weight("d", -OUT_OF_RANGE)];
    const accepted = await uploadNdjson(svc, token, "health-connect", body);
    expect(accepted.status, accepted.text).toBe(202);
    const answer = await settled(accepted.headers.get("location")!, token);
    expect(answer.body).toMatchObject({ status: "processed", records: { ...NO_ROWS, quantity_samples: 1 }, error: null });
    expect(answer.body.rejected.total).toBe(3);
    expect(answer.body.rejected.first.map((r: { line: number; locator: string }) => [r.line, r.locator])).toEqual([
      [1, "line 1"],
      [3, "line 3"],
      [5, "line 5"],
    ]);
    for (const rejection of answer.body.rejected.first) {
      expect(rejection).toEqual({ line: expect.any(Number), locator: expect.any(String), record_kind: "quantity_sample", reason: expect.any(String) });
      expect(rejection.reason).toMatch(/time/);
      expect(rejection.reason).not.toContain("71.3");
    }
  });

  it("lists the first 100 rejected records by line and counts them all", async () => {
    const { token } = await uploader();
    const body = Array.from({ length: 130 }, (_, i) => weight(`w${i}`, OUT_OF_RANGE));
    const accepted = await uploadNdjson(svc, token, "health-connect", body);
    const answer = await settled(accepted.headers.get("location")!, token);
    expect(answer.body.rejected.total).toBe(130);
    expect(answer.body.rejected.first.map((r: { line: number }) => r.line)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
  });

  it("names the line (the file) of an activity file's rejected records", async () => {
    const { token } = await uploader();
    const noTrack = '<gpx xmlns="http://www.topografix.com/GPX/1/1" version="1.1"><wpt lat="1" lon="2"/></gpx>';
    const accepted = await svc.call("/v1/ingest/activity-files", {
      method: "POST",
      rawBody: [Buffer.from(onelapRide()).toString("base64"), Buffer.from(noTrack).toString("base64")].join("\n"),
      headers: { authorization: `Bearer ${token}`, "content-type": "text/plain" },
    });
    expect(accepted.status, accepted.text).toBe(202);
    const answer = await settled(accepted.headers.get("location")!, token);
    expect(answer.body.records.workouts).toBe(1);
    expect(answer.body.rejected).toEqual({
      total: 1,
      first: [{ line: 2, locator: "line 2", record_kind: "activity_file", reason: "the GPX file has no track (<trk>); routes and waypoints are not workouts" }],
    });
  });

  it("is 404 for another user's token, another tenant's key, an unknown id, a pull's raw object and a user being deleted; 403 without scope upload", async () => {
    const { user, token } = await uploader();
    const accepted = await uploadNdjson(svc, token, "bluetooth", [heartRateLine(64, "2026-03-05T10:00:00Z")]);
    const location = accepted.headers.get("location")!;
    await settled(location, token);

    const other = await uploader();
    const refused = await svc.call(location, { key: other.token });
    expect(refused.status).toBe(404);
    expect(refused.headers.get("content-type")).toContain("application/problem+json");
    expect(refused.body).toMatchObject({ type: "about:blank", title: "Not Found", status: 404, detail: "No such upload." });
    expect((await svc.call(location, { key: otherKey })).status).toBe(404);
    expect((await svc.call(`/v1/ingest/uploads/${randomUUID()}`, { key })).status).toBe(404);
    expect((await svc.call("/v1/ingest/uploads/not-a-uuid", { key })).status).toBe(400);

    const reader = await mintToken(svc, key, user, ["read"]);
    expect((await svc.call(location, { key: reader })).status).toBe(403);
    const missing = await svc.call(location, {});
    expect(missing.status).toBe(401);
    expect(missing.headers.get("www-authenticate")).toBe("Bearer");

    // A raw object a pull stored is not an upload.
    const pulled = await svc.db.rawObject.create({
      data: { userId: user, provider: "fitbit", format: "fitbit-day", contentType: "application/json", storageKey: `${user}/${randomUUID()}`, status: "processed" },
    });
    expect((await svc.call(`/v1/ingest/uploads/${pulled.id}`, { key })).status).toBe(404);

    expect((await svc.call(`/v1/users/${user}`, { key, method: "DELETE" })).status).toBe(202);
    expect((await svc.call(location, { key })).status).toBe(404);
  });
});

describe("POST /v1/ingest/activity-files with a file's own bytes", () => {
  async function keptRows(user: string) {
    return {
      raw: await svc.db.rawObject.count({ where: { userId: user } }),
      rejected: await svc.db.rejectedRecord.count({ where: { userId: user } }),
      workouts: await svc.db.workout.count({ where: { userId: user } }),
    };
  }

  it("is 415 for a binary Content-Type, saying the route takes base64 lines and why; nothing is kept", async () => {
    const { user, token } = await uploader();
    for (const contentType of ["application/octet-stream", "application/vnd.ant.fit", "application/gpx+xml"]) {
      const answer = await svc.call("/v1/ingest/activity-files", {
        method: "POST",
        rawBody: Buffer.from(onelapRide()) as unknown as string,
        headers: { authorization: `Bearer ${token}`, "content-type": contentType },
      });
      expect(answer.status, answer.text).toBe(415);
      expect(answer.headers.get("content-type")).toContain("application/problem+json");
      expect(answer.body).toMatchObject({ type: "about:blank", title: "Unsupported Media Type", status: 415 });
      expect(answer.body.detail).toContain("text/plain");
      expect(answer.body.detail).toContain("base64");
      expect(answer.body.detail).toContain("several files");
    }
    expect(await keptRows(user)).toEqual({ raw: 0, rejected: 0, workouts: 0 });
  });

  it("is 400 for a FIT or GPX file's own bytes sent as text/plain; nothing is kept", async () => {
    const { user, token } = await uploader();
    const gpx = '<?xml version="1.0"?>\n<gpx xmlns="http://www.topografix.com/GPX/1/1" version="1.1"><trk><trkseg/></trk></gpx>';
    for (const body of [Buffer.from(onelapRide()), Buffer.from(gpx)]) {
      const answer = await svc.call("/v1/ingest/activity-files", {
        method: "POST",
        rawBody: body as unknown as string,
        headers: { authorization: `Bearer ${token}`, "content-type": "text/plain" },
      });
      expect(answer.status, answer.text).toBe(400);
      expect(answer.headers.get("content-type")).toContain("application/problem+json");
      expect(answer.body.detail).toMatch(/^The body is a FIT, GPX or TCX file's own bytes, not lines of base64\. /);
      expect(answer.body.detail).toContain("several files");
    }
    expect(await keptRows(user)).toEqual({ raw: 0, rejected: 0, workouts: 0 });
  });
});
