import { Router, type Request, type RequestHandler } from "express";
import {
  abandonUpload,
  AppError,
  authenticate,
  beginUpload,
  bearerSecret,
  completeUpload,
  deletionStartedMeanwhile,
  rawObjectSource,
  RawObjectTooLarge,
  requirePrincipalKind,
  startUploadHeartbeat,
  UploadDropped,
  userDeletedDuringUpload,
  type CoreDeps,
} from "@svc/core";
import { OCTET_STREAM, SNIFF_BYTES, UPLOAD_ROUTES, uploadFormatOf, type UploadFormat, type UploadRoute, type UploadRouteName } from "@svc/providers/upload-routes";
import { peekBody } from "./peek-body.ts";

const IDEMPOTENCY_KEY = /^.{1,255}$/s;

/**
 * POST /v1/ingest/<route>: the device upload routes. Their bodies are not JSON (gzip
 * NDJSON, CSV, XML, a zip, base64 lines, or any of them as application/octet-stream, told by
 * their first bytes), so they are plain express handlers around the same
 * core services: admit the upload, store its bytes raw, check them line by line (400
 * naming the line), then accept it (202) and queue its ETL. While the bytes arrive and are
 * checked, the upload's heartbeat shows it alive; without it the upload lapses and is swept.
 * The 202 links the upload's status (GET /v1/ingest/uploads/{upload_id}) in Location.
 */
export function ingestRouter(deps: CoreDeps): Router {
  const router = Router();
  for (const name of Object.keys(UPLOAD_ROUTES) as UploadRouteName[]) {
    router.post(`/v1/ingest/${name}`, ingest(deps, name));
  }
  return router;
}

function ingest(deps: CoreDeps, name: UploadRouteName): RequestHandler {
  const route: UploadRoute = UPLOAD_ROUTES[name];
  return async (req, res, next) => {
    try {
      const caller = await authenticate(deps.db, bearerSecret(req.get("authorization")));
      await deps.rateLimits.consume(caller);
      const principal = requirePrincipalKind(caller, "user");
      if (!principal.scopes.includes("upload")) throw new AppError("forbidden", "This user token lacks scope upload.");
      const declaredFormat = uploadFormatOf(name, req.get("content-type"));
      if (!declaredFormat && mediaTypeOf(req.get("content-type")) !== OCTET_STREAM) throw unsupportedMediaType(route);
      const idempotencyKey = req.get("idempotency-key");
      if (idempotencyKey !== undefined && !IDEMPOTENCY_KEY.test(idempotencyKey)) {
        throw new AppError("bad_request", "Idempotency-Key must be 1 to 255 characters.");
      }
      const declared = Number(req.get("content-length") ?? 0);
      if (declared > route.maxBytes) throw tooLarge(route.maxBytes);

      const { format, body } = declaredFormat ? { format: declaredFormat, body: bodyOf(req) } : await formatOfBytes(route, bodyOf(req));
      const target = { userId: principal.userId, provider: route.provider, format, contentType: req.get("content-type") ?? "" };
      const upload = { ...(await beginUpload(deps, principal.tenantId, target)), userId: principal.userId, provider: route.provider, idempotencyKey };
      const heartbeat = startUploadHeartbeat(deps, upload.rawObjectId);
      try {
        const stored = await deps.rawStore.write(upload.storageKey, heartbeat.watch(body), route.maxBytes);
        // The parsers load at the first upload: an API process that takes none never holds them.
        const { checkUpload } = await import("@svc/providers");
        await checkUpload(format, rawObjectSource(deps.rawStore, upload.storageKey, stored.byteSize));
        const { answer, replayed } = await completeUpload(deps, upload, stored);
        if (replayed) res.setHeader("Idempotent-Replayed", "true");
        res.setHeader("Location", `/v1/ingest/uploads/${answer.upload_id}`);
        res.status(202).json(answer);
      } catch (error) {
        // The body was not read to its end (too large, the store failed, the upload dropped):
        // the rest of it is still on this connection, which cannot carry another request.
        if (!req.complete) res.setHeader("Connection", "close");
        await abandonUpload(deps, upload);
        if (error instanceof RawObjectTooLarge) throw tooLarge(route.maxBytes);
        // A deletion of the user (or its tenant) removed the upload's folder or row under it.
        if (!(error instanceof AppError) && (await userDeletedDuringUpload(deps, upload.userId))) throw deletionStartedMeanwhile();
        if (error instanceof UploadDropped) throw dropped();
        throw error;
      } finally {
        heartbeat.stop();
      }
    } catch (error) {
      next(error);
    }
  };
}

/** 415 naming the media types the route takes, and how to send its body when it says so. */
function unsupportedMediaType(route: UploadRoute): AppError {
  const takes = `Content-Type must be one of: ${[...route.formats.flatMap((f) => f.contentTypes), OCTET_STREAM].join(", ")}.`;
  return new AppError("unsupported_media_type", route.howToSend ? `${takes} ${route.howToSend}` : takes);
}

/** The media type of a Content-Type, without parameters, lower case. */
const mediaTypeOf = (contentType: string | undefined): string => (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";

/** An application/octet-stream body's format, told by its first bytes; 415 for bytes the route refuses (a FIT file's own, say). */
async function formatOfBytes(route: UploadRoute, body: AsyncIterable<Uint8Array>): Promise<{ format: UploadFormat; body: AsyncGenerator<Uint8Array> }> {
  const peeked = await peekBody(body, SNIFF_BYTES);
  const format = route.bytes.formatOf(peeked.head);
  if (!format) throw unsupportedMediaType(route);
  return { format, body: peeked.body };
}

const tooLarge = (maxBytes: number) => new AppError("payload_too_large", `The body is larger than the ${maxBytes} bytes this route takes.`);

/** The sweep dropped the upload while it arrived (its bytes had stopped for long, or its heartbeats could not be written): send it again. */
const dropped = () =>
  new AppError("service_unavailable", "The upload was dropped while it arrived: its bytes stopped for too long. Send it again.", {
    headers: { "Retry-After": "1" },
  });

/**
 * The request body as raw bytes (the routes never let express parse it). A body that breaks
 * off before its end (the client aborted, its connection reset) is the client's 400, never
 * taken for a fault of the service: its ECONNRESET would read as the database's.
 */
async function* bodyOf(req: Request): AsyncGenerator<Uint8Array> {
  try {
    yield* req;
  } catch {
    throw new AppError("bad_request", "The body broke off before its end.");
  }
}
