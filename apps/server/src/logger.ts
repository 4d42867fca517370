import { isMainThread } from "node:worker_threads";
import { destination as pinoDestination, pino, type DestinationStream, type Logger } from "pino";

/**
 * The process logger. Never give it a body, a secret or a health value. By default it writes
 * to stdout asynchronously on the main thread: a synchronous write per line held up every
 * request (10% of a loaded API's CPU went to `writev`); pino writes what is still buffered
 * at exit, a crash included. A worker thread (the etl role of SVC_ROLE=all) serves no
 * request and pino flushes at exit on the main thread only: it writes synchronously.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  return pino(
    {
      level,
      base: { service: "svc" },
      timestamp: pino.stdTimeFunctions.isoTime,
      serializers: { err: serializeError },
    },
    destination ?? pinoDestination({ dest: 1, sync: !isMainThread }),
  );
}

/** Fields of errors that can quote stored values (PostgreSQL's `detail`, Prisma's `meta`). */
const VALUE_BEARING_FIELDS = new Set(["detail", "meta", "where", "message", "stack", "cause"]);

/**
 * Errors as logged. Database errors can quote what was written: Prisma prints the query
 * with its arguments, PostgreSQL puts key values in `detail`. Those parts are dropped;
 * type, code, the last line of a database error's message and stack frames stay. Causes
 * are serialized on their own, never folded into the outer message.
 */
export function serializeError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const fromDatabase = /^PrismaClient|DriverAdapterError/.test(error.name);
  const lines = error.message.split("\n").filter((line) => line.trim() !== "");
  const serialized: Record<string, unknown> = {
    type: error.name,
    message: fromDatabase ? (lines.at(-1) ?? error.name) : error.message,
    stack: (error.stack ?? "")
      .split("\n")
      .filter((line) => line.startsWith("    at "))
      .join("\n"),
  };
  for (const [key, value] of Object.entries(error)) {
    if (!VALUE_BEARING_FIELDS.has(key)) serialized[key] = value;
  }
  if (error.cause !== undefined) serialized.cause = serializeError(error.cause);
  return serialized;
}
