import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import {
  AppError,
  authenticate,
  bearerSecret,
  type CoreDeps,
  openFhirExportFile,
  requireReaderPrincipal,
  serviceUnavailableError,
} from "@svc/core";
import { Router } from "express";
import { sendFhirError } from "./fhir-answers.ts";

export const NDJSON_CONTENT_TYPE = "application/fhir+ndjson";

/** The chunks of a stream whose first chunk was already read. */
async function* resumed(first: IteratorResult<Uint8Array>, rest: AsyncIterator<Uint8Array>): AsyncGenerator<Uint8Array> {
  for (let next = first; !next.done; next = await rest.next()) yield next.value;
}

/**
 * GET /v1/fhir/bulk-files/{export_id}/{file_number}: an NDJSON file of a completed FHIR Bulk
 * Data export, streamed from the raw store as application/fhir+ndjson, with the credentials of
 * its status URL. Outside the router because it answers bytes, not JSON, and ahead of the
 * base's JSON-only format check (a client asks for application/fhir+ndjson).
 */
export function bulkFilesRouter(deps: CoreDeps): Router {
  const router = Router();
  router.get("/v1/fhir/bulk-files/:exportId/:fileNumber", async (req, res, next) => {
    let opened = false;
    try {
      const caller = await authenticate(deps.db, bearerSecret(req.get("authorization")));
      await deps.rateLimits.consume(caller);
      const principal = requireReaderPrincipal(caller, "read");
      const file = await openFhirExportFile(deps, principal, req.params.exportId, req.params.fileNumber);
      const chunks = file.body[Symbol.asyncIterator]();
      // The first read finds a file the store lost before any header is sent (a 503, not a cut 200).
      const first = await chunks.next();
      opened = true;
      res.status(200);
      res.setHeader("Content-Type", NDJSON_CONTENT_TYPE);
      res.setHeader("Content-Length", String(file.byteSize));
      res.setHeader("Cache-Control", "no-store");
      await pipeline(Readable.from(resumed(first, chunks)), res);
    } catch (error) {
      if (opened) {
        // Headers are out: a file cut mid-way must not read as whole.
        req.log.warn({ err: serviceUnavailableError(error)?.detail ?? error }, "export file download cut");
        res.destroy();
        return;
      }
      // The sweep deletes a file just before its row: a download in between finds no file.
      if ((error as { code?: unknown } | null)?.code === "ENOENT") return sendFhirError(req, res, new AppError("not_found", "No such file: it expired or was cancelled."));
      const appError = error instanceof AppError ? error : serviceUnavailableError(error);
      if (appError) return sendFhirError(req, res, appError);
      next(error);
    }
  });
  return router;
}
