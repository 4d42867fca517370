import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { RawObjectTooLarge, RawStoreUnavailable, s3RawStore } from "../src/index.ts";
import { refilledChunks } from "./helpers/refilled-chunks.ts";
import { fakeS3Bucket } from "./helpers/s3-bucket.ts";

const ENDPOINT = "https://s3.example.test";
const BUCKET = "svc-raw";
const CREDENTIALS = { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", region: "eu-central-1" };

const bucket = fakeS3Bucket(ENDPOINT, BUCKET, CREDENTIALS, 2);
const server = setupServer(...bucket.handlers);
const spoolDir = mkdtempSync(path.join(tmpdir(), "svc-spool-"));
const store = s3RawStore({ endpoint: ENDPOINT, bucket: BUCKET, ...CREDENTIALS, prefix: "svc/raw", spoolDir });

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  bucket.objects.clear();
  bucket.requests.length = 0;
});
afterAll(() => {
  server.close();
  rmSync(spoolDir, { recursive: true, force: true });
});

const keyOf = (userId: string) => `${userId}/${randomUUID()}`;

async function* chunksOf(bytes: Buffer, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

const s3ErrorAnswer = (status: number, code: string) =>
  new HttpResponse(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`, { status });

async function bytesOf(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const all: Buffer[] = [];
  for await (const chunk of chunks) all.push(Buffer.from(chunk));
  return Buffer.concat(all);
}

describe("the S3-compatible raw store", () => {
  it("writes a streamed body in one signed PUT with its length and SHA-256, under the prefix, and reads it back", async () => {
    const body = randomBytes(300_000);
    const key = keyOf(randomUUID());
    const stored = await store.write(key, chunksOf(body, 7_000), 1_000_000);
    const sha256 = createHash("sha256").update(body).digest("hex");
    expect(stored).toEqual({ byteSize: body.length, sha256 });
    expect(bucket.objects.get(`svc/raw/${key}`)?.equals(body)).toBe(true);

    const put = bucket.requests.find((r) => r.method === "PUT");
    expect(put?.url.pathname).toBe(`/${BUCKET}/svc/raw/${key}`);
    expect(put?.headers.get("authorization")).toMatch(/^AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE\/\d{8}\/eu-central-1\/s3\/aws4_request, /);
    expect(put?.headers.get("x-amz-content-sha256")).toBe(sha256);
    expect(put?.headers.get("content-length")).toBe(String(body.length));
    expect(readdirSync(spoolDir)).toEqual([]);

    expect((await bytesOf(store.read(key))).equals(body)).toBe(true);
  });

  it("is done with each chunk before it asks for the next: a body refilling one buffer is stored whole", async () => {
    const body = randomBytes(200_000);
    const key = keyOf(randomUUID());
    expect(await store.write(key, refilledChunks(body, 1_000), 1_000_000)).toEqual({ byteSize: body.length, sha256: createHash("sha256").update(body).digest("hex") });
    expect(bucket.objects.get(`svc/raw/${key}`)?.equals(body)).toBe(true);
  });

  it("stores an empty body", async () => {
    const key = keyOf(randomUUID());
    expect(await store.write(key, chunksOf(Buffer.alloc(0), 1), 10)).toMatchObject({ byteSize: 0 });
    expect(bucket.objects.get(`svc/raw/${key}`)?.length).toBe(0);
    expect((await bytesOf(store.read(key))).length).toBe(0);
  });

  it("reads ranges with Range requests (end exclusive), and an empty range without a request", async () => {
    const body = randomBytes(100_000);
    const key = keyOf(randomUUID());
    await store.write(key, chunksOf(body, 10_000), 1_000_000);
    for (const [start, end] of [[0, 1], [0, 100_000], [99_978, 100_000], [12_345, 67_890]] as const) {
      expect((await bytesOf(store.readRange(key, start, end))).equals(body.subarray(start, end))).toBe(true);
    }
    const ranged = bucket.requests.filter((r) => r.headers.get("range"));
    expect(ranged.map((r) => r.headers.get("range"))).toEqual(["bytes=0-0", "bytes=0-99999", "bytes=99978-99999", "bytes=12345-67889"]);

    const before = bucket.requests.length;
    expect((await bytesOf(store.readRange(key, 500, 500))).length).toBe(0);
    expect(bucket.requests.length).toBe(before);
  });

  it("refuses a body past the limit with RawObjectTooLarge, sends nothing and leaves no spool file", async () => {
    const key = keyOf(randomUUID());
    await expect(store.write(key, chunksOf(randomBytes(5_000), 1_000), 4_096)).rejects.toBeInstanceOf(RawObjectTooLarge);
    expect(bucket.requests).toEqual([]);
    expect(bucket.objects.size).toBe(0);
    expect(readdirSync(spoolDir)).toEqual([]);
  });

  it("deletes one object (a missing one too) and every object of a user across list pages", async () => {
    const user = randomUUID();
    const other = randomUUID();
    const keys = Array.from({ length: 5 }, () => keyOf(user));
    for (const key of [...keys, keyOf(other)]) await store.write(key, chunksOf(Buffer.from(key), 8), 1_000);

    await store.delete(keys[0] ?? "");
    await store.delete(keys[0] ?? "");
    expect(bucket.objects.has(`svc/raw/${keys[0]}`)).toBe(false);

    bucket.requests.length = 0;
    await store.deleteUser(user);
    expect([...bucket.objects.keys()].map((k) => k.split("/")[2])).toEqual([other]);
    const lists = bucket.requests.filter((r) => r.url.searchParams.get("list-type") === "2");
    // Four objects left, two a page: the second page is asked with the first page's token.
    expect(lists.length).toBe(2);
    expect(lists.map((r) => r.url.searchParams.get("prefix"))).toEqual([`svc/raw/${user}/`, `svc/raw/${user}/`]);
    expect(lists[1]?.url.searchParams.get("continuation-token")).toMatch(/^after&svc\/raw\//);
    expect(bucket.requests.filter((r) => r.method === "DELETE").length).toBe(4);
  });

  it("turns S3 errors into errors naming the operation and S3's code, never the credentials", async () => {
    const key = keyOf(randomUUID());
    const error = await bytesOf(store.read(key)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toBe("S3 GET failed: HTTP 404 NoSuchKey");

    // A refused PUT is never an acknowledgement: the upload answers 503 and its client retries.
    const wrong = s3RawStore({ endpoint: ENDPOINT, bucket: BUCKET, ...CREDENTIALS, secretAccessKey: "not-the-secret", spoolDir });
    const refused = await wrong.write(key, chunksOf(Buffer.from("x"), 1), 10).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RawStoreUnavailable);
    expect((refused as Error).message).toBe("The raw store failed to write: S3 PUT answered HTTP 403 SignatureDoesNotMatch");
    expect((refused as Error).message).not.toContain(CREDENTIALS.accessKeyId);
    expect(readdirSync(spoolDir)).toEqual([]);
  });

  it("takes only PutObject's acknowledgement (200 with an ETag); a 5xx, no answer or another answer is RawStoreUnavailable naming no key or URL", async () => {
    const answers: Array<[string, () => Response]> = [
      ["S3 PUT answered HTTP 503 SlowDown", () => s3ErrorAnswer(503, "SlowDown")],
      ["S3 PUT answered HTTP 500 InternalError", () => s3ErrorAnswer(500, "InternalError")],
      ["S3 unreachable: network error", () => HttpResponse.error()],
      // A proxy or a store that took the request but did not store the object.
      ["S3 PUT answered 200 without an ETag", () => new HttpResponse(null, { status: 200 })],
      ["S3 PUT answered HTTP 204", () => new HttpResponse(null, { status: 204, headers: { etag: '"x"' } })],
    ];
    for (const [reason, answer] of answers) {
      server.use(http.put(`${ENDPOINT}/${BUCKET}/*`, answer, { once: true }));
      const key = keyOf(randomUUID());
      const error = await store.write(key, chunksOf(randomBytes(1_000), 100), 10_000).catch((e: unknown) => e);
      expect(error, reason).toBeInstanceOf(RawStoreUnavailable);
      expect((error as Error).message).toBe(`The raw store failed to write: ${reason}`);
      expect(JSON.stringify({ ...(error as object), message: (error as Error).message })).not.toMatch(new RegExp(`${key}|${BUCKET}|example`));
      expect(readdirSync(spoolDir)).toEqual([]);
    }
    // A read of an object the store cannot serve right now is unavailable too; a missing one is not.
    server.use(http.get(`${ENDPOINT}/${BUCKET}/*`, () => s3ErrorAnswer(503, "SlowDown"), { once: true }));
    expect(await bytesOf(store.read(keyOf(randomUUID()))).catch((e: unknown) => e)).toBeInstanceOf(RawStoreUnavailable);
    const missing = await bytesOf(store.read(keyOf(randomUUID()))).catch((e: unknown) => e);
    expect(missing).not.toBeInstanceOf(RawStoreUnavailable);
  });

  it("passes an error of reading the body on as it is, sends nothing and leaves no spool file", async () => {
    const broken = new Error("the client went away");
    async function* body() {
      yield Buffer.from("first bytes");
      throw broken;
    }
    expect(await store.write(keyOf(randomUUID()), body(), 1_000).catch((e: unknown) => e)).toBe(broken);
    expect(bucket.requests).toEqual([]);
    expect(readdirSync(spoolDir)).toEqual([]);
  });

  it("refuses keys that are not <user id>/<raw object id> and prefixes with odd characters", () => {
    expect(() => store.read("../etc/passwd")).toThrow(/keys are/);
    expect(() => s3RawStore({ endpoint: ENDPOINT, bucket: BUCKET, ...CREDENTIALS, prefix: "a?b", spoolDir })).toThrow(/prefix/);
  });
});
