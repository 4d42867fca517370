import type { paths } from "./generated/openapi.ts";
import { unwrap } from "./problem.ts";
import type { RestClient } from "./rest-client.ts";

/** The `<route>` of every POST /v1/ingest/<route> (GET /v1/ingest/uploads/{upload_id} follows an upload). */
export type UploadRoute = {
  [P in keyof paths]: paths[P] extends { post: object } ? (P extends `/v1/ingest/${infer R}` ? R : never) : never;
}[keyof paths];
export type UploadAnswer = paths["/v1/ingest/apple-health"]["post"]["responses"][202]["content"]["application/json"];

/**
 * POST /v1/ingest/<route> with a body sent as is (gzip NDJSON, XML, a zip, CSV…), with a
 * user token of scope upload. Resolves to the 202 answer; throws SvcError otherwise.
 * Without idempotencyKey a fresh one is sent, the same on every retry.
 */
export function upload(
  rest: RestClient,
  route: UploadRoute,
  body: string | Uint8Array | Blob,
  options: { contentType: string; idempotencyKey?: string },
): Promise<UploadAnswer> {
  // Every upload route takes the same headers and answers alike; the path type of one stands for all.
  const path = `/v1/ingest/${route}` as "/v1/ingest/apple-health";
  return unwrap(
    rest.POST(path, {
      body: body as never,
      bodySerializer: (raw: unknown) => raw as string,
      headers: { "Content-Type": options.contentType },
      params: { header: options.idempotencyKey === undefined ? {} : { "Idempotency-Key": options.idempotencyKey } },
    }),
  );
}
