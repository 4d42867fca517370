import { AppError } from "./app-error.ts";

/** Prisma's codes for a database it cannot reach, a connection it lost, or no free connection. */
const PRISMA_CODES = new Set(["P1001", "P1002", "P1008", "P1017", "P2024", "P2037"]);
/** SQLSTATE: connection exceptions (class 08), too many connections, and a server shutting down or starting up (57P01-57P03). */
const SQLSTATE = /^(08...|53300|57P0[123])$/;
/** Socket errors of the pg driver (pg-boss) connecting to a server that is down. */
const SOCKET_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE"]);
/**
 * node-postgres's own errors, without a code, for a connection lost mid-query (failover, a proxy
 * closing it), never made, or lost before the next query of a transaction was sent on it.
 */
const PG_CONNECTION_MESSAGE = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error and is not queryable)/;

/**
 * Whether an error means PostgreSQL cannot be used right now (stopped, restarting, connection
 * lost), as opposed to a query that is wrong. Only the thrown error itself is looked at (and
 * Prisma's driver error inside it), so a provider call failing with ECONNREFUSED is not one.
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const { code, meta, cause, name } = error as {
    code?: unknown;
    meta?: { driverAdapterError?: { cause?: { originalCode?: unknown } } };
    cause?: { originalCode?: unknown };
    name?: unknown;
  };
  if (typeof code === "string" && (PRISMA_CODES.has(code) || SQLSTATE.test(code) || SOCKET_CODES.has(code))) return true;
  if (error instanceof Error && PG_CONNECTION_MESSAGE.test(error.message)) return true;
  // Prisma's error around the driver's, or (a raw query inside a transaction) the driver's own.
  const original = name === "DriverAdapterError" ? cause?.originalCode : meta?.driverAdapterError?.cause?.originalCode;
  return typeof original === "string" && SQLSTATE.test(original);
}

/** Retry-After of a 503 while the database is away: a restart or failover takes seconds. */
const RETRY_AFTER_SECONDS = "5";

/** The AppError a request answers with when the database is unavailable (503); undefined for any other error. */
export function databaseUnavailableError(error: unknown): AppError | undefined {
  if (!isDatabaseUnavailable(error)) return undefined;
  return new AppError("service_unavailable", "The database is unavailable; retry later.", {
    cause: error,
    headers: { "Retry-After": RETRY_AFTER_SECONDS },
  });
}
