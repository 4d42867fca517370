import { errorContent } from "./openapi-fhir.ts";

const PATH = "/v1/fhir/bulk-files/{export_id}/{file_number}";

const ERRORS: Record<string, string> = {
  "401": "Missing, wrong or expired secret",
  "403": "Not a tenant API key or a user token with scope read",
  "404": "No such file: no such export of the tenant (or of the token's user), not completed, no file of this number, or cancelled or expired",
  "429": "The caller's rate limit is reached; see Retry-After",
  "503": "The database or the raw store is unavailable for a moment; see Retry-After",
};

/** The path item of a FHIR Bulk Data export file: a plain express route (apps/server's bulk-files-router.ts) that answers NDJSON. */
export function bulkFilePaths(): Record<string, unknown> {
  return {
    [PATH]: {
      get: {
        operationId: "fhir-bulk-file",
        tags: ["fhir"],
        summary: "Download a file of a FHIR Bulk Data export",
        description:
          "One file of a completed export's manifest (`output[].url`), with the credentials of its kick-off (requiresAccessToken: true; a user token: exports of its own user only). " +
          "One resource per line, all of one type (Patient or Observation), streamed. Accept is not needed: the file is application/fhir+ndjson.",
        security: [{ bearer: [] }],
        parameters: [
          { name: "export_id", in: "path", required: true, description: "The export's id.", schema: { type: "string", minLength: 1, maxLength: 64 } },
          { name: "file_number", in: "path", required: true, description: "The file's number: 1, 2, … in the manifest's order.", schema: { type: "string", pattern: "^[0-9]+$" } },
        ],
        responses: {
          "200": {
            description: "The file",
            headers: { "Content-Length": { schema: { type: "integer" }, description: "The file's size in bytes." } },
            content: { "application/fhir+ndjson": { schema: { type: "string", contentMediaType: "application/fhir+ndjson", description: "FHIR R4 resources as NDJSON: one JSON resource a line." } } },
          },
          ...Object.fromEntries(
            Object.entries(ERRORS).map(([status, description]) => [
              status,
              {
                description,
                ...((status === "429" || status === "503") && {
                  headers: { "Retry-After": { schema: { type: "integer", minimum: 1 }, description: "Seconds to wait before calling again." } },
                }),
                content: errorContent(PATH),
              },
            ]),
          ),
        },
      },
    },
  };
}
