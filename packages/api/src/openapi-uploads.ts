import { OCTET_STREAM, UPLOAD_ROUTES, type UploadFormat, type UploadRoute, type UploadRouteName } from "@svc/providers/upload-routes";

/** What each upload format's body is, for /openapi.yaml (the full line formats are in docs/reference/upload-formats.md). */
const FORMAT_BODIES: Record<UploadFormat, string> = {
  "apple-health-ndjson": "HealthKit objects as NDJSON, one per line (quantity, category, workout, correlation, ecg, heartbeat_series, deleted), gzip or plain.",
  "apple-health-export-xml": "A whole Apple Health export.xml, streamed.",
  "apple-health-export-zip": "The Health app's export.zip as it is (Export All Health Data); its apple_health_export/export.xml is read, streamed. A zip without it, or a corrupt one, is a 400.",
  "health-connect-ndjson": "Android Health Connect records as NDJSON, one record per line with its recordType and Health Connect's property names, gzip or plain.",
  "xiaomi-csv": "Rows of a Mi Fitness or Zepp data copy: a `# <family>:<file>` line, optionally `# timezone: <IANA zone>`, then the CSV header and rows as the app exports them.",
  "activity-files-base64":
    "One FIT, GPX or TCX file per line, base64, so one request carries several files. A file's own bytes (a FIT file as it is) are refused: 415 as application/octet-stream or another Content-Type, 400 as text/plain.",
  "bluetooth-ndjson": "One standard Bluetooth health measurement per line: its characteristic, the value in hex, and its arrival time.",
};

/** The 202 answer of every upload route: components.schemas.UploadAccepted. */
export const UPLOAD_ACCEPTED = {
  type: "object" as const,
  description: "An upload stored raw; its records are written by a background job.",
  required: ["upload_id", "status", "byte_size", "sha256", "received_at"],
  properties: {
    upload_id: { type: "string" as const, format: "uuid", description: "The stored raw object; follow it at GET /v1/ingest/uploads/{upload_id} (the Location header)." },
    status: { type: "string" as const, const: "accepted", description: "Stored raw; its records are written by a background job." },
    byte_size: { type: "integer" as const },
    sha256: { type: "string" as const, description: "SHA-256 of the body as sent." },
    received_at: { type: "string" as const, format: "date-time" },
  },
};

const ERRORS: Record<string, string> = {
  "400": "A line (named in detail) or the body cannot be read; nothing was kept",
  "401": "Missing, wrong or expired token, or the token of a user being deleted",
  "403": "Not a user token, or the token lacks scope upload",
  "409": "The user's data of this provider is being erased, or an upload with this Idempotency-Key is still arriving",
  "410": "The user's deletion started while this upload arrived; nothing was kept",
  "413": "The body is larger than this route takes",
  "415": "Content-Type is not one this route takes, or the bytes of an application/octet-stream body are a kind it refuses (a FIT, GPX or TCX file's own bytes)",
  "422": "This Idempotency-Key was used for other bytes",
  "429": "Too many uploads of the user in flight, or the rate limit of the user's tokens is reached; see Retry-After",
  "503": "The database or the raw store is unavailable for a moment, or the upload was dropped after its bytes stopped arriving; see Retry-After",
};

/** The path items of POST /v1/ingest/<route>, which are plain express handlers outside the router. */
export function uploadPaths(): Record<string, unknown> {
  const paths: Record<string, unknown> = {};
  for (const name of Object.keys(UPLOAD_ROUTES) as UploadRouteName[]) {
    const route: UploadRoute = UPLOAD_ROUTES[name];
    // Bytes first: generators that pick one media type per operation then send any body of the route.
    const content: Record<string, unknown> = { [OCTET_STREAM]: { schema: { type: "string", format: "binary", description: route.bytes.description } } };
    for (const { format, contentTypes } of route.formats) {
      for (const type of contentTypes) content[type] = { schema: { type: "string", contentMediaType: type, description: FORMAT_BODIES[format] } };
    }
    paths[`/v1/ingest/${name}`] = {
      post: {
        operationId: `ingest-${name}`,
        tags: ["uploads"],
        summary: `Upload ${name} data`,
        description: `Stores the body raw, checks it line by line, and answers 202 with Location pointing at the upload's status (GET /v1/ingest/uploads/{upload_id}); a background job writes the records (provider \`${route.provider}\`) and sends data.written when anything was new or changed. Bodies up to ${route.maxBytes} bytes. A repeat with the same Idempotency-Key (or, without one, the same bytes) keeps nothing new and answers the first upload again with Idempotent-Replayed: true.`,
        security: [{ bearer: [] }],
        parameters: [
          {
            name: "Idempotency-Key",
            in: "header",
            required: false,
            description: "1 to 255 characters. Without it, the SHA-256 of the body identifies the upload.",
            schema: { type: "string", minLength: 1, maxLength: 255 },
          },
        ],
        requestBody: { required: true, content },
        responses: {
          "202": {
            description: "Accepted: stored raw, records follow",
            headers: {
              Location: { schema: { type: "string" }, description: "/v1/ingest/uploads/{upload_id}: follow the upload until its records are written." },
              "Idempotent-Replayed": { schema: { type: "string", const: "true" }, description: "Set on a repeat." },
            },
            content: { "application/json": { schema: { $ref: "#/components/schemas/UploadAccepted" } } },
          },
          ...Object.fromEntries(Object.entries(ERRORS).map(([status, description]) => [status, { description }])),
        },
      },
    };
  }
  return paths;
}
