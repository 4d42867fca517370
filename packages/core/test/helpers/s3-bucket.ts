import { createHash } from "node:crypto";
import { AwsV4Signer } from "aws4fetch";
import { http, HttpResponse, type RequestHandler } from "msw";

export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

export interface FakeS3Bucket {
  /** Stored objects by key. */
  objects: Map<string, Buffer>;
  /** Every request the bucket answered: method, URL and headers. */
  requests: Array<{ method: string; url: URL; headers: Headers }>;
  /** msw handlers answering as the bucket. */
  handlers: RequestHandler[];
}

/**
 * An in-memory stand-in for one bucket of an S3-compatible store, path-style at
 * `<endpoint>/<bucket>`: PutObject (length and payload SHA-256 checked, ETag answered), GetObject with
 * Range, DeleteObject and ListObjectsV2 with continuation tokens (`pageSize` keys a page).
 * Every request's SigV4 signature is recomputed with the credentials and must match.
 */
export function fakeS3Bucket(endpoint: string, bucket: string, credentials: S3Credentials, pageSize = 1000): FakeS3Bucket {
  const objects = new Map<string, Buffer>();
  const requests: FakeS3Bucket["requests"] = [];
  const base = `${endpoint}/${bucket}`;
  const keyOf = (url: URL) => decodeURIComponent(url.pathname.slice(`/${bucket}/`.length));

  async function refused(request: Request): Promise<Response | undefined> {
    const url = new URL(request.url);
    requests.push({ method: request.method, url, headers: request.headers });
    const authorization = request.headers.get("authorization") ?? "";
    const signed = /SignedHeaders=([^,]+)/.exec(authorization)?.[1]?.split(";") ?? [];
    const headers = Object.fromEntries(signed.filter((name) => name !== "host").map((name) => [name, request.headers.get(name) ?? ""]));
    const expected = await new AwsV4Signer({
      ...credentials,
      method: request.method,
      url: request.url,
      headers,
      service: "s3",
      datetime: request.headers.get("x-amz-date") ?? "",
    }).authHeader();
    if (!authorization.startsWith("AWS4-HMAC-SHA256 ") || authorization !== expected) return s3Error(403, "SignatureDoesNotMatch");
    return undefined;
  }

  const handlers = [
    http.put(`${base}/*`, async ({ request }) => {
      const refusal = await refused(request);
      if (refusal) return refusal;
      const body = Buffer.from(await request.arrayBuffer());
      if (request.headers.get("content-length") !== String(body.length)) return s3Error(411, "MissingContentLength");
      if (request.headers.get("x-amz-content-sha256") !== createHash("sha256").update(body).digest("hex")) {
        return s3Error(400, "XAmzContentSHA256Mismatch");
      }
      objects.set(keyOf(new URL(request.url)), body);
      // As S3 answers PutObject: 200 with the ETag (for a single-part object, the MD5 of its bytes).
      return new HttpResponse(null, { status: 200, headers: { etag: `"${createHash("md5").update(body).digest("hex")}"` } });
    }),
    http.get(`${base}/*`, async ({ request }) => {
      const refusal = await refused(request);
      if (refusal) return refusal;
      const object = objects.get(keyOf(new URL(request.url)));
      if (!object) return s3Error(404, "NoSuchKey");
      const range = /^bytes=(\d+)-(\d+)$/.exec(request.headers.get("range") ?? "");
      if (!range) return new HttpResponse(object, { status: 200 });
      const start = Number(range[1]);
      const last = Math.min(Number(range[2]), object.length - 1);
      if (start >= object.length) return s3Error(416, "InvalidRange");
      return new HttpResponse(object.subarray(start, last + 1), { status: 206 });
    }),
    http.delete(`${base}/*`, async ({ request }) => {
      const refusal = await refused(request);
      if (refusal) return refusal;
      objects.delete(keyOf(new URL(request.url)));
      return new HttpResponse(null, { status: 204 });
    }),
    http.get(base, async ({ request }) => {
      const refusal = await refused(request);
      if (refusal) return refusal;
      const query = new URL(request.url).searchParams;
      if (query.get("list-type") !== "2") return s3Error(400, "InvalidArgument");
      const prefix = query.get("prefix") ?? "";
      // Tokens name the last key given, so deletions between pages skip nothing (as on S3).
      const after = query.get("continuation-token")?.replace(/^after&/, "") ?? "";
      const keys = [...objects.keys()].filter((key) => key.startsWith(prefix) && key > after).sort();
      const page = keys.slice(0, pageSize);
      const truncated = keys.length > page.length;
      const xml = [
        '<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">',
        `<Name>${bucket}</Name><Prefix>${prefix}</Prefix><KeyCount>${page.length}</KeyCount><MaxKeys>${pageSize}</MaxKeys>`,
        `<IsTruncated>${truncated}</IsTruncated>`,
        ...page.map((key) => `<Contents><Key>${escapeXml(key)}</Key><Size>${objects.get(key)?.length ?? 0}</Size></Contents>`),
        truncated ? `<NextContinuationToken>${escapeXml(`after&${page.at(-1) ?? ""}`)}</NextContinuationToken>` : "",
        "</ListBucketResult>",
      ].join("");
      return new HttpResponse(xml, { status: 200, headers: { "content-type": "application/xml" } });
    }),
  ];
  return { objects, requests, handlers };
}

function s3Error(status: number, code: string): Response {
  const xml = `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`;
  return new HttpResponse(xml, { status, headers: { "content-type": "application/xml" } });
}

const escapeXml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
