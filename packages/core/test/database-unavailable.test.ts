import { describe, expect, it } from "vitest";
import { databaseUnavailableError, isDatabaseUnavailable } from "../src/platform/errors/database-unavailable.ts";
import { toProblem } from "../src/platform/errors/problem.ts";

/** The shape of Prisma's error around a driver adapter error with a PostgreSQL SQLSTATE. */
const prismaDatabaseError = (sqlState: string) =>
  Object.assign(new Error(`Database error. Code: \`${sqlState}\`.`), { code: "P2039", meta: { driverAdapterError: { cause: { originalCode: sqlState } } } });

describe("an unavailable database", () => {
  it("is recognized in Prisma's, pg's and the socket's errors", () => {
    expect(isDatabaseUnavailable(Object.assign(new Error("Can't reach database server"), { code: "P1001" }))).toBe(true);
    expect(isDatabaseUnavailable(prismaDatabaseError("57P01"))).toBe(true);
    expect(isDatabaseUnavailable(prismaDatabaseError("57P03"))).toBe(true);
    // The driver adapter's own, as a raw query inside a transaction throws it when the server shuts down.
    const driverError = Object.assign(new Error("terminating connection due to administrator command"), {
      name: "DriverAdapterError",
      cause: { originalCode: "57P01", kind: "postgres", code: "57P01" },
    });
    expect(isDatabaseUnavailable(driverError)).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("duplicate key"), { name: "DriverAdapterError", cause: { originalCode: "23505" } }))).toBe(false);
    expect(isDatabaseUnavailable(Object.assign(new Error("the database system is shutting down"), { code: "57P03" }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("connection failure"), { code: "08006" }))).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }))).toBe(true);
    // node-postgres's own, without a code: a connection lost mid-query (failover, a proxy closing it).
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnavailable(new Error("timeout exceeded when trying to connect"))).toBe(true);
    // A transaction's next query on a connection the server closed meanwhile (PostgreSQL stopping).
    expect(isDatabaseUnavailable(new Error("Client has encountered a connection error and is not queryable"))).toBe(true);
  });

  it("is not a wrong query, an unknown error, or a provider that cannot be reached", () => {
    expect(isDatabaseUnavailable(Object.assign(new Error("Unique constraint failed"), { code: "P2002" }))).toBe(false);
    expect(isDatabaseUnavailable(prismaDatabaseError("23505"))).toBe(false);
    expect(isDatabaseUnavailable(new Error("boom"))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError("fetch failed", { cause: Object.assign(new Error("refused"), { code: "ECONNREFUSED" }) }))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });

  it("answers 503 with Retry-After, without the driver's message", () => {
    const error = prismaDatabaseError("57P01");
    expect(databaseUnavailableError(error)?.headers).toMatchObject({ "Retry-After": "5" });
    const problem = toProblem(error, "r1");
    expect(problem).toMatchObject({ status: 503, title: "Service Unavailable", request_id: "r1" });
    expect(problem.detail).not.toContain("57P01");
    expect(databaseUnavailableError(new Error("boom"))).toBeUndefined();
  });
});
