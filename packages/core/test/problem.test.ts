import { describe, expect, it } from "vitest";
import { AppError } from "../src/platform/errors/app-error.ts";
import { APP_ERRORS, appErrorCodeForStatus } from "../src/platform/errors/error-table.ts";
import { toProblem } from "../src/platform/errors/problem.ts";

describe("problems", () => {
  it("maps an AppError through the one table", () => {
    expect(toProblem(new AppError("conflict", "taken"), "r1")).toEqual({
      type: "about:blank",
      title: "Conflict",
      status: 409,
      detail: "taken",
      request_id: "r1",
    });
  });

  it("hides unknown errors behind a generic 500", () => {
    const problem = toProblem(new Error('duplicate key value violates unique constraint "users_pkey" SELECT *'), "r2");
    expect(problem.status).toBe(500);
    expect(problem.detail).not.toMatch(/SELECT|constraint/);
  });

  it("gives 401 its WWW-Authenticate header", () => {
    expect(new AppError("unauthorized", "no").headers).toEqual({ "WWW-Authenticate": "Bearer" });
  });

  it("has one distinct status per code", () => {
    const statuses = Object.values(APP_ERRORS).map((entry) => entry.status);
    expect(new Set(statuses).size).toBe(statuses.length);
    expect(appErrorCodeForStatus(413)).toBe("payload_too_large");
  });
});
