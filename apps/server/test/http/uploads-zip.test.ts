import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fixturePath } from "@svc/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { zipOf } from "../../../../packages/providers/test/helpers/zip-writer.ts";
import { createUser, mintToken } from "../helpers/records.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";

const EXPORT_XML = readFileSync(fixturePath("applehealth_export_alxdrcirilo.xml"));
const dataDir = mkdtempSync(path.join(tmpdir(), "svc-zip-"));

let svc: TestService;
let key: string;

beforeAll(async () => {
  svc = await startTestService({ SVC_DATA_DIR: dataDir });
  key = (await svc.createTenant()).api_key;
});
afterAll(async () => {
  await svc?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function upload(body: Buffer, contentType: string) {
  const user = await createUser(svc, key);
  const token = await mintToken(svc, key, user, ["upload"]);
  const answer = await svc.call("/v1/ingest/apple-health", {
    method: "POST",
    rawBody: body as unknown as string,
    headers: { authorization: `Bearer ${token}`, "content-type": contentType },
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

/** The user's category samples with their series' type, source name and provider, as writtenFor lists samples. */
async function categorySamplesOf(userId: string) {
  const samples = await svc.db.categorySample.findMany({
    where: { userId },
    select: { value: true, startDate: true, endDate: true, series: { select: { type: true, sourceName: true, provider: true } } },
  });
  return samples
    .map(({ series, ...sample }) => ({ type: series.type, ...sample, sourceName: series.sourceName, provider: series.provider }))
    .sort((a, b) => a.type.localeCompare(b.type) || a.startDate.getTime() - b.startDate.getTime());
}

/** What the ETL wrote for a user, per table and per type, without ids and upload times. */
async function writtenFor(userId: string) {
  const where = { userId };
  const orderBy = [{ type: "asc" as const }, { startDate: "asc" as const }];
  const select = { type: true, value: true, startDate: true, endDate: true, sourceName: true, provider: true };
  return {
    quantitySamples: await svc.db.quantitySample.findMany({ where, orderBy, select: { ...select, unit: true } }),
    categorySamples: await categorySamplesOf(userId),
    sleepSessions: await svc.db.sleepSession.count({ where }),
    workouts: await svc.db.workout.count({ where }),
    dailySummaries: await svc.db.dailySummary.count({ where }),
    rejected: await svc.db.rejectedRecord.count({ where }),
  };
}

/** The raw files kept for a user under SVC_DATA_DIR/raw. */
const rawFilesOf = (userId: string) => {
  const dir = path.join(dataDir, "raw", userId);
  return existsSync(dir) ? readdirSync(dir) : [];
};

describe("POST /v1/ingest/apple-health with the Health app's export.zip", () => {
  it("gives the same records as export.xml uploaded plain", async () => {
    const zip = zipOf([
      { name: "apple_health_export/export_cda.xml", data: "<ClinicalDocument/>" },
      { name: "apple_health_export/workout-routes/route_2024-01-01_8.10am.gpx", data: "<gpx/>" },
      { name: "apple_health_export/export.xml", data: EXPORT_XML },
    ]);
    const zipped = await upload(zip, "application/zip");
    const plain = await upload(EXPORT_XML, "application/xml");
    expect(zipped.answer.status, zipped.answer.text).toBe(202);
    expect(plain.answer.status, plain.answer.text).toBe(202);
    expect(zipped.answer.body).toMatchObject({ status: "accepted", byte_size: zip.length });

    const [zipRaw, plainRaw] = [await processed(zipped.answer.body.upload_id), await processed(plain.answer.body.upload_id)];
    expect(zipRaw).toMatchObject({ status: "processed", format: "apple-health-export-zip" });
    expect(plainRaw).toMatchObject({ status: "processed", format: "apple-health-export-xml" });
    expect(zipRaw.summary).toEqual(plainRaw.summary);
    // The zip is kept raw as it was sent.
    expect(readFileSync(path.join(dataDir, "raw", zipped.user, zipRaw.id)).equals(zip)).toBe(true);

    const fromZip = await writtenFor(zipped.user);
    expect(fromZip).toEqual(await writtenFor(plain.user));
    expect(fromZip.quantitySamples).toHaveLength(6);
    expect(fromZip.quantitySamples[0]).toMatchObject({ provider: "apple_health" });
    expect(fromZip.sleepSessions).toBeGreaterThan(0);

    const samples = await svc.call(`/v1/users/${zipped.user}/samples?type=heart_rate&view=all`, { key });
    expect(samples.body.data[0]).toMatchObject({ value: 74, start_date: "2023-12-31T23:01:36.000Z", provider: "apple_health" });
  });

  it.each([
    ["a corrupt zip", () => zipOf([{ name: "apple_health_export/export.xml", data: EXPORT_XML }]).subarray(0, 400), /not a readable zip archive/],
    ["a zip without export.xml", () => zipOf([{ name: "apple_health_export/export_cda.xml", data: "<x/>" }]), /holds no apple_health_export\/export.xml/],
    ["an export.xml sent as a zip", () => EXPORT_XML, /not a readable zip archive/],
    ["a zip whose export.xml is not well-formed", () => zipOf([{ name: "export.xml", data: "<HealthData><Record>" }]), /^line \d+/],
  ])("answers 400 naming the problem for %s, and keeps nothing", async (_name, body, detail) => {
    const before = await svc.db.rawObject.count();
    const { user, answer } = await upload(body(), "application/zip");
    expect(answer.status, answer.text).toBe(400);
    expect(answer.headers.get("content-type")).toContain("application/problem+json");
    expect(answer.body.detail).toMatch(detail);
    expect(await svc.db.rawObject.count()).toBe(before);
    expect(rawFilesOf(user)).toEqual([]);
  });

  it("points a zip sent as XML to application/zip", async () => {
    const { answer } = await upload(zipOf([{ name: "export.xml", data: EXPORT_XML }]), "application/xml");
    expect(answer.status).toBe(400);
    expect(answer.body.detail).toContain("Content-Type application/zip");
  });
});
