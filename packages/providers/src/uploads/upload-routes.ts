import { hasZipSignature, looksLikeXml, startsLikeActivityFile } from "./body-signatures.ts";

const MiB = 1024 * 1024;
const GiB = 1024 * MiB;
const NDJSON = ["application/x-ndjson", "application/ndjson", "application/jsonl", "application/gzip"];

/** The formats a stored raw object of an upload can be in; the ETL parses by it. */
export type UploadFormat =
  | "apple-health-ndjson"
  | "apple-health-export-xml"
  | "apple-health-export-zip"
  | "health-connect-ndjson"
  | "xiaomi-csv"
  | "activity-files-base64"
  | "bluetooth-ndjson";

export interface UploadRoute {
  /** The provider the upload's records are stored under. */
  provider: string;
  /** Largest body as sent (compressed when gzip). */
  maxBytes: number;
  formats: ReadonlyArray<{ format: UploadFormat; contentTypes: readonly string[] }>;
  /** Added to the 415 of a body in another media type: how to send this route's body instead. */
  howToSend?: string;
  /**
   * A body sent as application/octet-stream, for clients (and client generators) that know no
   * media type above: its format told by its first SNIFF_BYTES bytes (undefined: bytes this route
   * refuses, 415), and the words /openapi.yaml describes it with.
   */
  bytes: { formatOf(head: Uint8Array): UploadFormat | undefined; description: string };
}

export const OCTET_STREAM = "application/octet-stream";

/** How many first bytes of an application/octet-stream body tell its format. */
export const SNIFF_BYTES = 64;

const ndjsonBytes = (format: UploadFormat) => ({
  formatOf: () => format,
  description: "The NDJSON of application/x-ndjson (gzip or plain), as bytes.",
});

/**
 * Why a FIT, GPX or TCX file's own bytes (sent as application/vnd.ant.fit, application/gpx+xml,
 * application/octet-stream…) are not the body of POST /v1/ingest/activity-files, and what is.
 */
export const ACTIVITY_FILES_HOW_TO_SEND =
  "This route takes text/plain lines, each one FIT, GPX or TCX file encoded in base64, so that one request can carry several files; " +
  "a file's raw bytes are not accepted as the body. Encode each file in base64 and send one file per line; nothing was kept.";

/**
 * POST /v1/ingest/<name>: what each upload route takes. A gzip body is recognized by its
 * first bytes, so NDJSON may be sent gzip with Content-Type application/gzip, with
 * Content-Encoding: gzip, or plain.
 */
export const UPLOAD_ROUTES = {
  "apple-health": {
    provider: "apple_health",
    // A whole export.xml of many years is several GB; it is streamed, never held in memory.
    maxBytes: 4 * GiB,
    formats: [
      { format: "apple-health-ndjson", contentTypes: NDJSON },
      { format: "apple-health-export-xml", contentTypes: ["application/xml", "text/xml"] },
      // The Health app's export.zip as it is; read by ranges, its export.xml streamed out of it.
      { format: "apple-health-export-zip", contentTypes: ["application/zip", "application/x-zip-compressed"] },
    ],
    bytes: {
      formatOf: (head) => (hasZipSignature(head) ? "apple-health-export-zip" : looksLikeXml(head) ? "apple-health-export-xml" : "apple-health-ndjson"),
      description: "Any of the bodies above, as bytes: a zip archive is read as export.zip, a body starting with `<` as export.xml, anything else as NDJSON (gzip or plain).",
    },
  },
  "health-connect": {
    provider: "health_connect",
    maxBytes: 256 * MiB,
    formats: [{ format: "health-connect-ndjson", contentTypes: NDJSON }],
    bytes: ndjsonBytes("health-connect-ndjson"),
  },
  xiaomi: {
    provider: "xiaomi",
    maxBytes: 64 * MiB,
    formats: [{ format: "xiaomi-csv", contentTypes: ["text/csv", "text/plain"] }],
    bytes: { formatOf: () => "xiaomi-csv", description: "The data copy of text/csv, as bytes." },
  },
  "activity-files": {
    provider: "activity_files",
    maxBytes: 64 * MiB,
    formats: [{ format: "activity-files-base64", contentTypes: ["text/plain"] }],
    howToSend: ACTIVITY_FILES_HOW_TO_SEND,
    bytes: {
      formatOf: (head) => (startsLikeActivityFile(head) ? undefined : "activity-files-base64"),
      description: "The base64 lines of text/plain, as bytes. A FIT, GPX or TCX file's own bytes are refused (415): encode each file in base64 on its line.",
    },
  },
  bluetooth: { provider: "bluetooth", maxBytes: 16 * MiB, formats: [{ format: "bluetooth-ndjson", contentTypes: NDJSON }], bytes: ndjsonBytes("bluetooth-ndjson") },
} as const satisfies Record<string, UploadRoute>;

export type UploadRouteName = keyof typeof UPLOAD_ROUTES;

/** The format of an upload to a route by its Content-Type (parameters such as charset ignored); undefined when the route does not take it. */
export function uploadFormatOf(name: UploadRouteName, contentType: string | undefined): UploadFormat | undefined {
  const mediaType = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  const route: UploadRoute = UPLOAD_ROUTES[name];
  return route.formats.find((f) => f.contentTypes.includes(mediaType))?.format;
}

/** Every upload route accepts at most this much once gzip (or a zip) is undone (a small gzip body can expand a thousandfold). */
export const MAX_DECODED_BYTES = 8 * GiB;
/** A line holds one record, or one activity file in base64. */
export const MAX_LINE_BYTES = 96 * MiB;
