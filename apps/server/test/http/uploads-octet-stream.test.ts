// The upload routes also take their bodies as application/octet-stream (for clients and client
// generators that know no other media type), the format told by the body's first bytes.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onelapRide } from "../../../../packages/providers/test/helpers/fit-files.ts";
import { zipOf } from "../../../../packages/providers/test/helpers/zip-writer.ts";
import { createUser, mintToken } from "../helpers/records.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";
import { heartRateLine } from "../helpers/uploads.ts";

let svc: TestService;
let key: string;

beforeAll(async () => {
  svc = await startTestService();
  key = (await svc.createTenant()).api_key;
});
afterAll(() => svc?.stop());

const EXPORT_XML = `<?xml version="1.0" encoding="UTF-8"?>
<HealthData locale="en_US">
 <Record type="HKQuantityTypeIdentifierHeartRate" sourceName="Watch" unit="count/min" creationDate="2026-03-01 08:00:00 +0000" startDate="2026-03-01 08:00:00 +0000" endDate="2026-03-01 08:00:00 +0000" value="61"/>
</HealthData>
`;
const HEALTHKIT_LINE = '{"kind":"quantity","uuid":"A","type":"HKQuantityTypeIdentifierHeartRate","value":60,"unit":"count/min","start":"2026-03-01T08:00:00Z"}';
const HEALTH_CONNECT_LINE = JSON.stringify({ recordType: "Weight", metadata: { id: "w1", dataOrigin: "com.example.scale" }, time: "2026-03-01T08:00:00Z", weight: { inKilograms: 70 } });
const XIAOMI_COPY = ["# zepp:HEARTRATE_AUTO", "# timezone: Europe/Berlin", "date,time,heartRate", "2026-03-01,09:00,61"].join("\n");

async function sendBytes(route: string, body: Buffer) {
  const user = await createUser(svc, key);
  const token = await mintToken(svc, key, user, ["upload"]);
  const answer = await svc.call(`/v1/ingest/${route}`, {
    method: "POST",
    rawBody: body as unknown as string,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/octet-stream" },
  });
  return { user, answer };
}

async function processed(uploadId: string) {
  for (let i = 0; i < 150; i++) {
    const raw = await svc.db.rawObject.findFirst({ where: { id: uploadId } });
    if (raw && raw.status !== "pending" && raw.status !== "receiving") return raw;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error("the ETL did not process the upload");
}

describe("POST /v1/ingest/<route> with Content-Type application/octet-stream", () => {
  const cases: Array<[route: string, what: string, format: string, body: () => Buffer]> = [
    ["apple-health", "NDJSON", "apple-health-ndjson", () => Buffer.from(HEALTHKIT_LINE)],
    ["apple-health", "export.xml", "apple-health-export-xml", () => Buffer.from(EXPORT_XML)],
    ["apple-health", "export.zip", "apple-health-export-zip", () => zipOf([{ name: "apple_health_export/export.xml", data: EXPORT_XML }])],
    ["health-connect", "NDJSON", "health-connect-ndjson", () => Buffer.from(HEALTH_CONNECT_LINE)],
    ["xiaomi", "a data copy", "xiaomi-csv", () => Buffer.from(XIAOMI_COPY)],
    ["activity-files", "base64 lines", "activity-files-base64", () => Buffer.from(`${Buffer.from(onelapRide()).toString("base64")}\n`)],
    ["bluetooth", "NDJSON", "bluetooth-ndjson", () => Buffer.from(heartRateLine(72, "2026-03-01T10:00:00Z"))],
  ];

  it.each(cases)("%s takes %s as bytes, read as %s as with its own media type", async (route, _what, format, body) => {
    const { answer } = await sendBytes(route, body());
    expect(answer.status, answer.text).toBe(202);
    const raw = await processed(answer.body.upload_id);
    expect(raw).toMatchObject({ status: "processed", format, contentType: "application/octet-stream" });
    const status = await svc.call(`/v1/ingest/uploads/${answer.body.upload_id}`, { key });
    expect(status.body).toMatchObject({ format, status: "processed" });
    expect(Object.values(status.body.records as Record<string, number>).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });

  it("checks the bytes like any body: a line that does not read is a 400 naming it, and nothing is kept", async () => {
    const { user, answer } = await sendBytes("bluetooth", Buffer.from(`${heartRateLine(72, "2026-03-01T10:00:00Z")}\nnot json`));
    expect(answer.status, answer.text).toBe(400);
    expect(answer.body.detail).toMatch(/^line 2/);
    expect(await svc.db.rawObject.count({ where: { userId: user } })).toBe(0);
  });

  it("the 415 of another media type names application/octet-stream among those the route takes", async () => {
    const user = await createUser(svc, key);
    const token = await mintToken(svc, key, user, ["upload"]);
    const answer = await svc.call("/v1/ingest/xiaomi", {
      method: "POST",
      rawBody: XIAOMI_COPY,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    });
    expect(answer.status).toBe(415);
    expect(answer.body.detail).toBe("Content-Type must be one of: text/csv, text/plain, application/octet-stream.");
  });
});
