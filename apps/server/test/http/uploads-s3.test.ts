import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fixturePath } from "@svc/testing";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fakeS3Bucket } from "../../../../packages/core/test/helpers/s3-bucket.ts";
import { zipOf } from "../../../../packages/providers/test/helpers/zip-writer.ts";
import { readEnv } from "../../src/index.ts";
import { createUser, mintToken } from "../helpers/records.ts";
import { startTestService, type TestService } from "../helpers/test-service.ts";

// The S3-compatible bucket is an in-memory stand-in (msw); everything else is the real service.
const ENDPOINT = "http://minio.example.test:9000";
const CREDENTIALS = { accessKeyId: "svc-test", secretAccessKey: "svc-test-secret", region: "us-east-1" };
const bucket = fakeS3Bucket(ENDPOINT, "health-raw", CREDENTIALS);
const s3 = setupServer(...bucket.handlers);
const dataDir = mkdtempSync(path.join(tmpdir(), "svc-s3-"));
const EXPORT_XML = readFileSync(fixturePath("applehealth_export_alxdrcirilo.xml"));

let svc: TestService;
let key: string;

beforeAll(async () => {
  // Calls to the service itself pass through.
  s3.listen({ onUnhandledRequest: "bypass" });
  svc = await startTestService({
    SVC_DATA_DIR: dataDir,
    SVC_RAW_STORE: "s3",
    SVC_S3_ENDPOINT: ENDPOINT,
    SVC_S3_BUCKET: "health-raw",
    SVC_S3_REGION: CREDENTIALS.region,
    SVC_S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
    SVC_S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
    SVC_S3_PREFIX: "raw",
  });
  key = (await svc.createTenant()).api_key;
});
afterAll(async () => {
  await svc?.stop();
  s3.close();
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

describe("uploads kept in an S3-compatible bucket (SVC_RAW_STORE=s3)", () => {
  it("stores the zipped export in the bucket, reads it back by ranges, and writes its records", async () => {
    const zip = zipOf([
      { name: "apple_health_export/export_cda.xml", data: "<ClinicalDocument/>" },
      { name: "apple_health_export/export.xml", data: EXPORT_XML },
    ]);
    const { user, answer } = await upload(zip, "application/zip");
    expect(answer.status, answer.text).toBe(202);
    const raw = await processed(answer.body.upload_id);
    expect(raw.status).toBe("processed");
    expect(bucket.objects.get(`raw/${user}/${raw.id}`)?.equals(zip)).toBe(true);
    expect(bucket.requests.some((r) => r.method === "GET" && r.headers.get("range"))).toBe(true);
    expect(await svc.db.quantitySample.count({ where: { userId: user } })).toBe(6);
    // The spool file of the PUT is gone.
    expect(readdirSync(path.join(dataDir, "spool"))).toEqual([]);
  });

  it("answers 400 for a corrupt zip and leaves nothing in the bucket", async () => {
    const { user, answer } = await upload(zipOf([{ name: "export.xml", data: EXPORT_XML }]).subarray(0, 300), "application/zip");
    expect(answer.status, answer.text).toBe(400);
    expect([...bucket.objects.keys()].filter((k) => k.includes(user))).toEqual([]);
  });

  it("refuses to start with SVC_RAW_STORE=s3 but no bucket or keys, naming them", () => {
    expect(() => readEnv({ SVC_RAW_STORE: "s3", SVC_S3_ENDPOINT: ENDPOINT })).toThrow(
      /SVC_S3_BUCKET: required when SVC_RAW_STORE=s3\n {2}SVC_S3_ACCESS_KEY_ID: required when SVC_RAW_STORE=s3\n {2}SVC_S3_SECRET_ACCESS_KEY: required/,
    );
    expect(readEnv({}).SVC_RAW_STORE).toBe("file");
  });
});
