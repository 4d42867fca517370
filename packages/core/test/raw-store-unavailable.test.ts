import { describe, expect, it } from "vitest";
import { serviceUnavailableError } from "../src/platform/errors/service-unavailable.ts";
import { toProblem } from "../src/platform/errors/problem.ts";
import { RawStoreUnavailable } from "../src/platform/raw-store/raw-store.ts";

describe("an unavailable raw store", () => {
  it("answers 503 with Retry-After, like an unavailable database, without the store's reason", () => {
    const error = new RawStoreUnavailable("write", "ENOSPC (write)");
    expect(serviceUnavailableError(error)).toMatchObject({ code: "service_unavailable", headers: { "Retry-After": "5" } });
    const problem = toProblem(error, "r1");
    expect(problem).toMatchObject({ status: 503, title: "Service Unavailable", request_id: "r1" });
    expect(problem.detail).toBe("The raw data store is unavailable; retry later.");
  });

  it("is not any other error", () => {
    expect(serviceUnavailableError(Object.assign(new Error("EACCES: permission denied, open '/data/raw/x'"), { code: "EACCES" }))).toBeUndefined();
    expect(toProblem(new Error("boom"), "r2").status).toBe(500);
  });
});
