import { randomUUID } from "node:crypto";
import { once } from "node:events";
import { createReadStream, createWriteStream, type WriteStream } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { AwsClient } from "aws4fetch";
import { measuredBody } from "./measured-body.ts";
import { asRawStoreFault, RAW_STORE_KEY, RAW_STORE_KEY_ERROR, RawStoreUnavailable, type RawStore } from "./raw-store.ts";

export interface S3RawStoreOptions {
  /** Base URL of the S3 API, e.g. https://s3.eu-central-1.amazonaws.com or a MinIO/R2 URL; buckets are addressed path-style. */
  endpoint: string;
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Prepended to every key (a trailing `/` is added when missing); empty for none. */
  prefix?: string;
  /** Where a body is spooled (counted, hashed, size-limited) before its PUT. */
  spoolDir: string;
}

const USER_ID = /^[0-9a-f-]{36}$/;
const PREFIX = /^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;
const EMPTY_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
/** DELETEs in flight at once while a user's objects are removed. */
const DELETE_CONCURRENCY = 16;

/**
 * Raw objects in an S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, …), signed with
 * SigV4: `<prefix><user id>/<raw object id>`. A body is spooled to a file while it is
 * counted and hashed, then sent in one PUT with its length and signed SHA-256, so nothing
 * is held in memory and a body past the limit never reaches the bucket. A write resolves
 * only on PutObject's own acknowledgement (200 with an ETag): the object store has then
 * checked the signed SHA-256 and stored the object durably. A store that cannot be
 * reached or answers 5xx is RawStoreUnavailable; so is any refused PUT.
 */
export function s3RawStore(options: S3RawStoreOptions): RawStore {
  const prefix = normalizedPrefix(options.prefix ?? "");
  const bucketUrl = `${options.endpoint.replace(/\/+$/, "")}/${encodeURIComponent(options.bucket)}`;
  const client = new AwsClient({
    accessKeyId: options.accessKeyId,
    secretAccessKey: options.secretAccessKey,
    region: options.region,
    service: "s3",
    retries: 0,
  });

  const objectUrl = (fullKey: string) => `${bucketUrl}/${fullKey.split("/").map(encodeURIComponent).join("/")}`;
  const keyOf = (key: string) => {
    if (!RAW_STORE_KEY.test(key)) throw new Error(RAW_STORE_KEY_ERROR);
    return `${prefix}${key}`;
  };

  /**
   * One signed request; the payload's SHA-256 is signed too (the empty one without a body).
   * A store that cannot be reached is RawStoreUnavailable.
   */
  async function send(operation: string, method: string, url: string, init: { headers?: Record<string, string>; body?: AsyncIterable<Uint8Array> } = {}) {
    const headers = { "x-amz-content-sha256": EMPTY_SHA256, ...init.headers };
    const request = await client.sign(url, { method, headers, body: init.body, duplex: "half" } as RequestInit);
    try {
      return await fetch(request);
    } catch (error) {
      throw unreachable(operation, error);
    }
  }

  async function* getBody(what: string, url: string, headers: Record<string, string>, expected: number) {
    const response = await send("read", "GET", url, { headers });
    if (response.status !== expected || !response.body) throw await failure(response, what, "read");
    try {
      yield* response.body;
    } catch (error) {
      throw unreachable("read", error);
    }
  }

  async function deleteObject(fullKey: string) {
    const response = await send("delete", "DELETE", objectUrl(fullKey));
    if (!response.ok && response.status !== 404) throw await failure(response, "DELETE", "delete");
    await response.body?.cancel();
  }

  /** One page of ListObjectsV2 under `listPrefix`: its keys and the token of the next page. */
  async function listPage(listPrefix: string, token: string | undefined) {
    const url = new URL(bucketUrl);
    url.searchParams.set("list-type", "2");
    url.searchParams.set("prefix", listPrefix);
    if (token) url.searchParams.set("continuation-token", token);
    const response = await send("delete", "GET", url.toString());
    if (!response.ok) throw await failure(response, "ListObjectsV2", "delete");
    const xml = await response.text();
    const keys = [...xml.matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => xmlText(m[1] ?? ""));
    const truncated = /<IsTruncated>\s*true\s*<\/IsTruncated>/.test(xml);
    const next = /<NextContinuationToken>([^<]*)<\/NextContinuationToken>/.exec(xml)?.[1];
    if (truncated && !next) throw new Error("S3 ListObjectsV2 answered a truncated page without a continuation token");
    return { keys, next: truncated ? xmlText(next ?? "") : undefined };
  }

  return {
    async write(key, body, maxBytes) {
      const url = objectUrl(keyOf(key));
      const spool = path.join(options.spoolDir, `${randomUUID()}.upload`);
      const measured = measuredBody(body, maxBytes);
      let spoolFile: WriteStream | undefined;
      try {
        await mkdir(options.spoolDir, { recursive: true });
        // highWaterMark 0: each chunk is written before the next is asked for (RawStore.write's promise).
        spoolFile = createWriteStream(spool, { highWaterMark: 0 });
        await pipeline(measured.chunks, spoolFile);
        const stored = measured.result();
        const response = await send("write", "PUT", url, {
          headers: { "content-length": String(stored.byteSize), "content-type": "application/octet-stream", "x-amz-content-sha256": stored.sha256 },
          body: createReadStream(spool),
        });
        // PutObject answers 200 with the object's ETag once it is stored; anything else is no acknowledgement.
        if (response.status !== 200) throw await failure(response, "PUT", "write", true);
        await response.body?.cancel();
        if (!response.headers.get("etag")) throw new RawStoreUnavailable("write", "S3 PUT answered 200 without an ETag");
        return stored;
      } catch (error) {
        throw measured.isBodyError(error) ? error : asRawStoreFault("write", error);
      } finally {
        // A refused body fails the pipeline while the spool file may still be opening: removed
        // before the stream has closed, the file would be created again after the rm and stay.
        if (spoolFile && !spoolFile.closed) await once(spoolFile, "close").catch(() => undefined);
        await rm(spool, { force: true }).catch(() => undefined);
      }
    },
    read: (key) => getBody("GET", objectUrl(keyOf(key)), {}, 200),
    readRange(key, start, endExclusive) {
      const url = objectUrl(keyOf(key));
      if (endExclusive <= start) return (async function* () {})();
      return getBody("GET (range)", url, { range: `bytes=${start}-${endExclusive - 1}` }, 206);
    },
    delete: (key) => deleteObject(keyOf(key)),
    async deleteUser(userId) {
      if (!USER_ID.test(userId)) throw new Error("not a user id");
      let token: string | undefined;
      do {
        const page = await listPage(`${prefix}${userId}/`, token);
        for (let i = 0; i < page.keys.length; i += DELETE_CONCURRENCY) {
          await Promise.all(page.keys.slice(i, i + DELETE_CONCURRENCY).map(deleteObject));
        }
        token = page.next;
      } while (token);
    },
  };
}

function normalizedPrefix(prefix: string): string {
  const trimmed = prefix.replace(/^\/+|\/+$/g, "");
  if (trimmed === "") return "";
  if (!PREFIX.test(trimmed)) throw new Error("The S3 key prefix may hold only letters, digits, '.', '_', '-' and '/'.");
  return `${trimmed}/`;
}

/**
 * An S3 error answer as an Error naming the operation, the status and S3's error code; never
 * the URL or a header. A 5xx (or any answer, when `alwaysUnavailable`) is RawStoreUnavailable.
 */
async function failure(response: Response, what: string, operation: string, alwaysUnavailable = false): Promise<Error> {
  const text = await response.text().catch(() => "");
  const code = /<Code>([A-Za-z0-9.]{1,100})<\/Code>/.exec(text)?.[1];
  const answer = `HTTP ${response.status}${code ? ` ${code}` : ""}`;
  if (alwaysUnavailable || response.status >= 500) return new RawStoreUnavailable(operation, `S3 ${what} answered ${answer}`);
  return new Error(`S3 ${what} failed: ${answer}`);
}

/** fetch failing (no answer, or the answer's body broke off) as RawStoreUnavailable with the network error's code only. */
function unreachable(operation: string, error: unknown): RawStoreUnavailable {
  const code = (error instanceof Error ? (error.cause as { code?: unknown } | undefined)?.code : undefined) ?? (error as { code?: unknown } | undefined)?.code;
  return new RawStoreUnavailable(operation, `S3 unreachable: ${typeof code === "string" && /^[A-Z][A-Z0-9_]{1,40}$/.test(code) ? code : "network error"}`);
}

const XML_ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

/** The text of an XML element (the five named entities and numeric references decoded). */
function xmlText(raw: string): string {
  return raw.replace(/&(amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (_, entity: string) => {
    if (entity.startsWith("#x")) return String.fromCodePoint(Number.parseInt(entity.slice(2), 16));
    if (entity.startsWith("#")) return String.fromCodePoint(Number(entity.slice(1)));
    return XML_ENTITIES[entity] ?? "";
  });
}
